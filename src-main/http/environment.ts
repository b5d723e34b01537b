import { createHash, X509Certificate } from 'node:crypto'
import type { EnvironmentKind } from '../contract/environment.ts'
import { AppError } from '../core/app-error.ts'
import { certificateSubjectDn } from '../plumbing/subject-dn.ts'

/**
 * How an environment's server certificates are checked:
 * - `ca-bundle`: only the given CA certificates are trusted (the local sandbox's exact bundle);
 * - `system`: Node's built-in root CAs, plus `extraCaPem` if given (production);
 * - `off`: no verification (the bank's sandbox, as its spec says). Recorded on every exchange.
 */
export type ServerTrust =
  { mode: 'ca-bundle'; caPem: string } | { mode: 'system'; extraCaPem?: string } | { mode: 'off' }

/** The HTTP side of an environment: where it is, and how its servers are trusted. */
export interface HttpEnvironment {
  id: string
  kind: EnvironmentKind
  /**
   * Origins (`https://host:port`) of this environment: {base_url}, {auth_url}, the directory, the
   * endpoints of its discovery document. The client certificate is offered to these only.
   */
  origins: string[]
  trust: ServerTrust
}

/** A TLS client identity: the transport certificate (chain) and its key, as PEM. Main side only. */
export interface HttpIdentity {
  id: string
  certPem: string
  keyPem: string
}

/** The trust an environment kind gets by default: exact CA bundle, verification off, or system CAs. */
export function defaultTrust(kind: EnvironmentKind, caPem?: string): ServerTrust {
  if (kind === 'local-sandbox') {
    if (!caPem) {
      throw new AppError('INVALID_INPUT', {
        what: 'Configuring the local sandbox environment failed',
        cause:
          'no CA bundle was given; the local sandbox is trusted through its exact CA bundle, never by turning verification off',
        fix: 'pass the sandbox CA bundle (ca-bundle.pem in its data directory, or RunningSandbox.caBundlePem)',
      })
    }
    return { mode: 'ca-bundle', caPem }
  }
  if (kind === 'bank-sandbox') return { mode: 'off' }
  return caPem ? { mode: 'system', extraCaPem: caPem } : { mode: 'system' }
}

/**
 * The origin of a URL as the allow-list compares it: scheme, host and explicit port
 * (`https://bank.example:443`). Throws INVALID_INPUT for a relative or non-HTTP URL.
 */
export function originOf(url: string): string {
  let u: URL
  try {
    u = new URL(url)
  } catch {
    throw new AppError('INVALID_INPUT', {
      what: `Using the URL "${url}" failed`,
      cause: 'it is not an absolute URL',
      fix: 'give the full URL, e.g. https://bank.example/open-banking/v4.0/aisp/accounts',
    })
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') {
    throw new AppError('INVALID_INPUT', {
      what: `Using the URL "${url}" failed`,
      cause: `its scheme is ${u.protocol}`,
      fix: 'use an https:// URL',
    })
  }
  const port = u.port || (u.protocol === 'https:' ? '443' : '80')
  return `${u.protocol}//${u.hostname.toLowerCase()}:${port}`
}

/** Summaries of the certificates seen lately (a client is built per environment and identity, often again for the same certificate). */
const summaries = new Map<string, { subjectDn: string; thumbprint: string }>()

/** Subject DN (RFC 4514 order) and base64url SHA-256 thumbprint of the first certificate of a PEM. */
export function certificateSummary(certPem: string): { subjectDn: string; thumbprint: string } {
  const known = summaries.get(certPem)
  if (known) return { ...known }
  const cert = new X509Certificate(certPem)
  const subjectDn = certificateSubjectDn(cert.raw)
  const summary = { subjectDn, thumbprint: createHash('sha256').update(cert.raw).digest('base64url') }
  if (summaries.size >= 64) summaries.delete(summaries.keys().next().value!)
  summaries.set(certPem, summary)
  return { ...summary }
}
