import { X509Certificate, createHash } from 'node:crypto'
import type { Server as TlsServer, TLSSocket, DetailedPeerCertificate } from 'node:tls'
import type { Context, Middleware } from 'koa'
import { certificateSubjectDn } from '../../plumbing/subject-dn.ts'

/** What the sandbox knows of the client certificate presented on this connection. */
export interface PeerCertificate {
  /**
   * True when the sandbox accepts the certificate for mutual TLS: it chains to the sandbox's issuing CA,
   * or (transport certificates `self-signed-allowed`) it is self-signed with the subject and public key of
   * a transport certificate the directory issued.
   */
  trusted: boolean
  /** How a trusted certificate was accepted: issued by the directory's CA, or self-signed and matched to a registered one. */
  trustedAs?: 'ca-issued' | 'self-signed'
  /** True when the certificate is self-signed (its own issuer, signed by its own key). */
  selfSigned: boolean
  /** Why the certificate is not trusted (Node's TLS authorisation error, or why a self-signed one was refused), when it is not. */
  untrustedReason?: string
  /** PEM of the leaf certificate. */
  pem: string
  /** base64url SHA-256 of the DER: the `x5t#S256` that binds tokens to the certificate (RFC 8705). */
  thumbprint: string
  subject: Record<string, string>
  /** The subject DN as an RFC 4514 string, as a `tls_client_auth` client registers it. */
  subjectDn: string
  /** base64url SHA-256 of the certificate's DER SubjectPublicKeyInfo: which key the certificate carries. */
  spkiSha256: string
  /** The full subject DN in certificate order read back to front (`CN=…,OU=…,O=…,C=GB`), as the directory records it. */
  certificateSubjectDn: string
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

/**
 * Which client certificates the sandbox accepts for mutual TLS (docs/local-sandbox.md, "Profiles").
 * `ca-issued`: only certificates chained to the directory's issuing CA, as production. `self-signed-allowed`
 * (the local sandbox's default, spec section 5: "The sandbox accepts self-signed certificates"): also a
 * self-signed certificate whose subject DN and public key match a transport certificate the directory issued.
 */
export type TransportCertificates = 'ca-issued' | 'self-signed-allowed'
export const TRANSPORT_CERTIFICATES: readonly TransportCertificates[] = ['ca-issued', 'self-signed-allowed']

/** The identity of a certificate the directory keeps for each transport certificate it issued. */
export interface CertificateIdentity {
  /** base64url SHA-256 of the DER: the `x5t#S256`. */
  thumbprint: string
  /** `CN=…,OU=…,O=…,C=GB`: the subject as an RFC 4514 string (values escaped). */
  subjectDn: string
  /** base64url SHA-256 of the DER SubjectPublicKeyInfo. */
  spkiSha256: string
}

/**
 * The identities of the certificates seen lately, by thumbprint: a TPP presents the same certificate on every
 * connection, and reading its subject as RFC 4514 (an ASN.1 parse, about 0.25 ms) is worth doing once.
 */
const identities = new Map<string, CertificateIdentity>()
const IDENTITIES_KEPT = 256

/** Thumbprint, subject DN and public-key hash of a certificate (PEM or DER). */
export function certificateIdentity(cert: string | Buffer | X509Certificate): CertificateIdentity {
  const x = cert instanceof X509Certificate ? cert : new X509Certificate(cert)
  const thumbprint = createHash('sha256').update(x.raw).digest('base64url')
  const known = identities.get(thumbprint)
  if (known) return { ...known }
  const identity: CertificateIdentity = {
    thumbprint,
    subjectDn: certificateSubjectDn(x.raw),
    spkiSha256: createHash('sha256')
      .update(x.publicKey.export({ type: 'spki', format: 'der' }))
      .digest('base64url'),
  }
  if (identities.size >= IDENTITIES_KEPT) identities.delete(identities.keys().next().value!)
  identities.set(thumbprint, identity)
  return { ...identity }
}

/**
 * The per-connection policy of a TLS server: whether self-signed client certificates are considered, and
 * how one is matched to a registered transport certificate (undefined: accepted; else why it is not).
 * The match reads the directory (a store that other instances write), so it is asynchronous: it is made
 * once per connection, before the connection's first request is handled (see settlePeerCertificate).
 */
export interface TransportTrust {
  mode: TransportCertificates
  selfSignedProblem(peer: PeerCertificate): Promise<string | undefined>
}

const perSocketTrust = new WeakMap<TLSSocket, TransportTrust>()
/** Connections whose self-signed certificate is being matched to the directory's records. */
const perSocketSettling = new WeakMap<TLSSocket, Promise<void>>()

/**
 * Applies a transport-certificate policy to every connection of `server`, before any of its requests is
 * read. With `onUntrusted`, a connection whose certificate is missing or not accepted is handed to it
 * right after the handshake (the `handshake` TLS mode closes it there).
 */
export function applyTransportTrust(
  server: TlsServer,
  trust: TransportTrust,
  onUntrusted?: (socket: TLSSocket, peer: PeerCertificate | undefined) => void,
): void {
  server.prependListener('secureConnection', (socket: TLSSocket) => {
    perSocketTrust.set(socket, trust)
    if (onUntrusted) {
      const judge = () => {
        const peer = peerCertificate({ socket })
        if (!peer?.trusted) onUntrusted(socket, peer)
      }
      const settling = settlePeerCertificate(socket)
      if (settling) void settling.then(judge)
      else judge()
    }
  })
}

/** Its own issuer, signed with its own key (a stale authority key identifier, as `openssl x509 -signkey` leaves, does not matter). */
function isSelfSigned(x: X509Certificate): boolean {
  try {
    return x.issuer === x.subject && x.verify(x.publicKey)
  } catch {
    return false
  }
}

/** The certificate as presented, before a self-signed one is matched to the directory (not frozen yet). */
function readPeerCertificate(socket: TLSSocket): PeerCertificate | null {
  const cert = socket.getPeerCertificate(false) as DetailedPeerCertificate
  if (!cert || !cert.raw) return null
  const x = new X509Certificate(cert.raw)
  const identity = certificateIdentity(x)
  const selfSigned = isSelfSigned(x)
  const subject = flatten(cert.subject as unknown as Record<string, string | string[]>)
  const pem = `-----BEGIN CERTIFICATE-----\n${cert.raw.toString('base64').replace(/.{64}/g, '$&\n').replace(/\n$/, '')}\n-----END CERTIFICATE-----\n`
  const order = ['CN', 'OU', 'O', 'L', 'ST', 'C']
  const subjectDn = order
    .filter((k) => subject[k])
    .map((k) => `${k}=${subject[k]}`)
    .join(',')
  return {
    trusted: socket.authorized === true,
    trustedAs: socket.authorized === true ? 'ca-issued' : undefined,
    selfSigned,
    untrustedReason: socket.authorized ? undefined : String(socket.authorizationError ?? 'not trusted'),
    pem,
    thumbprint: identity.thumbprint,
    subject: Object.freeze(subject),
    subjectDn,
    spkiSha256: identity.spkiSha256,
    certificateSubjectDn: identity.subjectDn,
    orgId: subject.OU,
    softwareId: subject.CN,
  }
}

function settle(socket: TLSSocket, peer: PeerCertificate | null): undefined {
  perSocket.set(socket, peer && Object.freeze(peer))
  perSocketSettling.delete(socket)
  return undefined
}

/**
 * Decides once per connection whether its client certificate is accepted. A CA-issued certificate (or
 * none) is decided at once: undefined is returned. A self-signed one, with `self-signed-allowed` in force,
 * is matched to the directory's records, which may live in a store shared with other instances: the
 * promise returned settles when that is decided, and every request of the connection waits for it
 * (peerCertificateSettled), so a TPP onboarded a moment ago on another instance is accepted here.
 */
export function settlePeerCertificate(socket: TLSSocket): Promise<void> | undefined {
  if (perSocket.has(socket)) return undefined
  const pending = perSocketSettling.get(socket)
  if (pending) return pending
  const peer = readPeerCertificate(socket)
  const trust = perSocketTrust.get(socket)
  if (!peer || peer.trusted || !peer.selfSigned || !trust) return settle(socket, peer)
  if (trust.mode === 'ca-issued') {
    peer.untrustedReason =
      'it is self-signed, and this sandbox runs with transport certificates "ca-issued" (as production): only certificates issued by its directory\'s CA are accepted; use transport.pem of the starter kit, or start the sandbox with --transport-certs self-signed-allowed'
    return settle(socket, peer)
  }
  const settling = trust.selfSignedProblem(peer).then(
    (problem) => {
      if (problem === undefined) {
        peer.trusted = true
        peer.trustedAs = 'self-signed'
        peer.untrustedReason = undefined
      } else {
        peer.untrustedReason = `it is self-signed, and ${problem}`
      }
      settle(socket, peer)
    },
    (err: Error) => {
      peer.untrustedReason = `it is self-signed, and the directory could not be read to match it to a registered transport certificate (${err.message}); try again`
      settle(socket, peer)
    },
  )
  perSocketSettling.set(socket, settling)
  return settling
}

/** Koa middleware, first on a mutual-TLS origin: the connection's certificate is decided before anything reads it. */
export const peerCertificateSettled: Middleware = (ctx, next) => {
  const socket = ctx.socket as TLSSocket
  const settling = typeof socket?.getPeerCertificate === 'function' ? settlePeerCertificate(socket) : undefined
  // Decided already (a connection's later requests; a CA-issued certificate or none): on at once, no await.
  return settling ? settling.then(() => next()) : next()
}

/**
 * Reads the client certificate of the request's TLS connection; undefined when none was sent. The
 * answer is decided once per connection (settlePeerCertificate) and shared (frozen) by its requests. A
 * self-signed certificate whose match to the directory is not decided yet (a request handled without
 * peerCertificateSettled in front) reads as not accepted, with that reason.
 */
export function peerCertificate(ctx: Pick<Context, 'socket'> | { socket: unknown }): PeerCertificate | undefined {
  const socket = ctx.socket as TLSSocket
  if (typeof socket?.getPeerCertificate !== 'function') return undefined
  if (!perSocket.has(socket) && settlePeerCertificate(socket)) {
    const presented = readPeerCertificate(socket)!
    return Object.freeze({
      ...presented,
      untrustedReason:
        'it is self-signed, and its match to a registered transport certificate was not decided before this request was read',
    })
  }
  return perSocket.get(socket) ?? undefined
}

/**
 * Why this request cannot use the API over mutual TLS, in words a developer can act on; undefined when
 * the client presented a certificate issued by the sandbox's issuing CA.
 */
export function mtlsProblem(peer: PeerCertificate | undefined): string | undefined {
  if (!peer)
    return 'no client certificate was presented: this endpoint requires mutual TLS with the transport certificate the directory issued (see the starter kit: transport.pem and transport.key)'
  if (!peer.trusted && peer.selfSigned && peer.untrustedReason?.startsWith('it is self-signed'))
    return `the client certificate (subject ${peer.subjectDn || 'empty'}) is refused: ${peer.untrustedReason}`
  if (!peer.trusted)
    return `the client certificate (subject ${peer.subjectDn || 'empty'}) is not issued by the local sandbox's issuing CA (${peer.untrustedReason}); use the transport certificate from this sandbox's directory`
  return undefined
}
