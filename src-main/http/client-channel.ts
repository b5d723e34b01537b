// The connections of an HTTP client: a channel is one undici Agent (keep-alive, one connection per origin,
// the client's per-phase timeouts) with its TLS options (the environment's server trust, TLS 1.2 at
// least, the transport certificate and key when it is the mutual TLS channel) and the tracker that tells
// each exchange its connection's facts. `http-client.ts` opens two, with and without the certificate.
import { createSecureContext, rootCertificates } from 'node:tls'
import { Agent } from './undici-parts.ts'
import { ConnectionTracker } from './connection-tracker.ts'
import type { HttpIdentity, ServerTrust } from './environment.ts'

export interface HttpTimeouts {
  connectMs: number
  headersMs: number
  bodyMs: number
}

export const DEFAULT_TIMEOUTS: HttpTimeouts = { connectMs: 10_000, headersMs: 30_000, bodyMs: 30_000 }

export interface Channel {
  agent: Agent
  tracker: ConnectionTracker
}

/** A channel trusting what `trust` says; `identity`: the client certificate and key it presents, if any. */
export function openChannel(trust: ServerTrust, identity: HttpIdentity | undefined, timeouts: HttpTimeouts): Channel {
  const contextOptions = {
    minVersion: 'TLSv1.2' as const,
    ...(trust.mode === 'ca-bundle' ? { ca: trust.caPem } : {}),
    ...(trust.mode === 'system' && trust.extraCaPem ? { ca: [...rootCertificates, trust.extraCaPem] } : {}),
    ...(identity ? { cert: identity.certPem, key: identity.keyPem } : {}),
  }
  // One secure context per channel, shared by its connections: Node would otherwise parse the CA
  // bundle, certificate and key again for every connection. Material Node refuses is passed as it is,
  // so the refusal comes at connect time and is explained like any other TLS failure.
  let secureContext: ReturnType<typeof createSecureContext> | undefined
  try {
    secureContext = createSecureContext(contextOptions)
  } catch {
    secureContext = undefined
  }
  const tls = {
    timeout: timeouts.connectMs,
    rejectUnauthorized: trust.mode !== 'off',
    ...(secureContext ? { secureContext } : contextOptions),
  }
  const tracker = new ConnectionTracker(tls)
  const agent = new Agent({
    connect: tracker.connect,
    connections: 1,
    keepAliveTimeout: 10_000,
    keepAliveMaxTimeout: 60_000,
    headersTimeout: timeouts.headersMs,
    bodyTimeout: timeouts.bodyMs,
  })
  return { agent, tracker }
}
