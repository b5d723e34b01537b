import { createHash } from 'node:crypto'
import type { TLSSocket, DetailedPeerCertificate } from 'node:tls'
import type { Context } from 'koa'

/** What the sandbox knows of the client certificate presented on this connection. */
export interface PeerCertificate {
  /** True when the certificate chains to the sandbox's issuing CA. */
  trusted: boolean
  /** Why the certificate is not trusted (Node's TLS authorisation error), when it is not. */
  untrustedReason?: string
  /** PEM of the leaf certificate. */
  pem: string
  /** base64url SHA-256 of the DER: the `x5t#S256` that binds tokens to the certificate (RFC 8705). */
  thumbprint: string
  subject: Record<string, string>
  /** The subject DN as an RFC 4514 string, as a `tls_client_auth` client registers it. */
  subjectDn: string
  /** Open Banking convention: OU = organisation id, CN = software id. */
  orgId?: string
  softwareId?: string
}

function flatten(name: Record<string, string | string[]> | undefined): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(name ?? {})) out[k] = Array.isArray(v) ? v.join('+') : v
  return out
}

/**
 * The client certificate of each TLS connection, read once: it cannot change on a connection (the
 * sandbox allows no renegotiation that would swap it), and reading it (`getPeerCertificate`, the PEM,
 * the SHA-256 thumbprint) on every request of a keep-alive connection was a tenth of a data request's CPU.
 * Keyed weakly on the socket, so an entry goes with its connection. `null`: no certificate was sent.
 */
const perSocket = new WeakMap<TLSSocket, PeerCertificate | null>()

function readPeerCertificate(socket: TLSSocket): PeerCertificate | null {
  const cert = socket.getPeerCertificate(false) as DetailedPeerCertificate
  if (!cert || !cert.raw) return null
  const subject = flatten(cert.subject as unknown as Record<string, string | string[]>)
  const pem = `-----BEGIN CERTIFICATE-----\n${cert.raw.toString('base64').replace(/.{64}/g, '$&\n').replace(/\n$/, '')}\n-----END CERTIFICATE-----\n`
  const order = ['CN', 'OU', 'O', 'L', 'ST', 'C']
  const subjectDn = order.filter((k) => subject[k]).map((k) => `${k}=${subject[k]}`).join(',')
  return Object.freeze({
    trusted: socket.authorized === true,
    untrustedReason: socket.authorized ? undefined : String(socket.authorizationError ?? 'not trusted'),
    pem,
    thumbprint: createHash('sha256').update(cert.raw).digest('base64url'),
    subject: Object.freeze(subject),
    subjectDn,
    orgId: subject.OU,
    softwareId: subject.CN,
  })
}

/**
 * Reads the client certificate of the request's TLS connection; undefined when none was sent. The
 * answer is computed once per connection and shared (frozen) by its requests.
 */
export function peerCertificate(ctx: Pick<Context, 'socket'> | { socket: unknown }): PeerCertificate | undefined {
  const socket = ctx.socket as TLSSocket
  if (typeof socket?.getPeerCertificate !== 'function') return undefined
  let peer = perSocket.get(socket)
  if (peer === undefined) {
    peer = readPeerCertificate(socket)
    perSocket.set(socket, peer)
  }
  return peer ?? undefined
}

/**
 * Why this request cannot use the API over mutual TLS, in words a developer can act on; undefined when
 * the client presented a certificate issued by the sandbox's issuing CA.
 */
export function mtlsProblem(peer: PeerCertificate | undefined): string | undefined {
  if (!peer) return 'no client certificate was presented: this endpoint requires mutual TLS with the transport certificate the directory issued (see the starter kit: transport.pem and transport.key)'
  if (!peer.trusted) return `the client certificate (subject ${peer.subjectDn || 'empty'}) is not issued by the local sandbox's issuing CA (${peer.untrustedReason}); use the transport certificate from this sandbox's directory`
  return undefined
}
