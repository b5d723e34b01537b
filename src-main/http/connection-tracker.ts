import type { Socket } from 'node:net'
import type { PeerCertificate, TLSSocket } from 'node:tls'
import type { buildConnector as Connector } from 'undici'
import { buildConnector } from './undici-parts.ts'

/** What the console learnt about one connection: phase times and TLS facts. */
export interface ConnectionInfo {
  origin: string
  /** performance.now() values. */
  startedAt: number
  lookupAt?: number
  tcpAt?: number
  tlsAt?: number
  /** The server sent a CertificateRequest (seen through the shared signature algorithms). */
  clientCertRequested: boolean
  protocol?: string
  cipher?: string
  /** It resumed an earlier TLS session (no certificates exchanged again). */
  sessionResumed?: boolean
  /** With verification off: Node's verdict on the server certificate, had it been checked. */
  unverifiedReason?: string
  serverCertificate?: { subjectDn: string; issuerDn: string; validTo: string; sha256Hex: string }
  /** The first error the socket reported (a TLS alert from the server shows up here). */
  error?: Error
  socket?: Socket
}

function dn(name: PeerCertificate['subject'] | undefined): string {
  if (!name) return ''
  const order = ['CN', 'OU', 'O', 'L', 'ST', 'C']
  const entries = Object.entries(name as unknown as Record<string, string | string[]>)
  entries.sort(([a], [b]) => (order.indexOf(a) + 1 || 99) - (order.indexOf(b) + 1 || 99))
  return entries.map(([k, v]) => `${k}=${Array.isArray(v) ? v.join('+') : v}`).join(',')
}

function describeTls(info: ConnectionInfo, socket: TLSSocket): void {
  // A client learns the server's signature algorithms only from a CertificateRequest.
  info.clientCertRequested ||= typeof socket.getSharedSigalgs === 'function' && socket.getSharedSigalgs().length > 0
  info.protocol = socket.getProtocol() ?? undefined
  info.cipher = socket.getCipher()?.name
  info.sessionResumed = socket.isSessionReused()
  if (!socket.authorized && socket.authorizationError) info.unverifiedReason = String(socket.authorizationError)
  const peer = socket.getPeerCertificate()
  if (peer && peer.raw) {
    info.serverCertificate = {
      subjectDn: dn(peer.subject),
      issuerDn: dn(peer.issuer),
      validTo: new Date(peer.valid_to).toISOString(),
      sha256Hex: peer.fingerprint256,
    }
  }
}

/**
 * An undici connector that records, for every connection it opens, DNS/TCP/TLS times, whether the
 * server asked for a client certificate, the TLS version and cipher, the server certificate and any
 * TLS alert. The HTTP client reads `opened` around each request (requests to one client are serialised,
 * so the connections opened during a request are that request's).
 */
export class ConnectionTracker {
  /** Connections opened since the last `take()`. */
  private opened: ConnectionInfo[] = []
  /** The last connection per origin (keep-alive reuses it). */
  private readonly lastByOrigin = new Map<string, ConnectionInfo>()
  readonly connect: Connector.connector

  constructor(tlsOptions: Connector.BuildOptions) {
    // One undici connector per origin: a connector keeps TLS sessions by host name alone, so origins on
    // one host (the local sandbox's three ports on 127.0.0.1) would offer each other's sessions, which
    // the other server cannot resume. Per origin, a reconnect resumes its own session.
    const connectors = new Map<string, Connector.connector>()
    this.connect = (opts, callback) => {
      const origin = `${opts.protocol}//${opts.hostname}:${opts.port || (opts.protocol === 'https:' ? '443' : '80')}`
      let base = connectors.get(origin)
      if (!base) connectors.set(origin, (base = buildConnector(tlsOptions)))
      const info: ConnectionInfo = { origin, startedAt: performance.now(), clientCertRequested: false }
      this.opened.push(info)
      this.lastByOrigin.set(origin, info)
      // undici's connector returns the socket it opens (its type says void): kept to time the phases.
      const socket = base(opts, (err, sock) => {
        info.tlsAt = performance.now()
        if (err) info.error ??= err
        else if (sock && 'getPeerCertificate' in sock) describeTls(info, sock as TLSSocket)
        const done = callback as (e: Error | null, s: Socket | null) => void
        done(err, sock as Socket | null)
      }) as unknown as Socket | undefined
      if (socket) {
        info.socket = socket
        socket.once('lookup', () => {
          info.lookupAt = performance.now()
        })
        socket.once('connect', () => {
          info.tcpAt = performance.now()
        })
        socket.on('error', (e: Error) => {
          info.error ??= e
        })
        // During a TLS 1.2 handshake the CertificateRequest is known before the handshake ends (and
        // before a server refusing our certificate cuts it): sample it when key material is derived.
        // The key log line itself is ignored, never stored.
        socket.on('keylog', () => {
          try {
            const tlsSocket = socket as unknown as TLSSocket
            if (tlsSocket.getSharedSigalgs()?.length) info.clientCertRequested = true
          } catch {
            // The handshake state is gone: nothing to learn.
          }
        })
      }
      return socket
    }
  }

  /** Connections opened since the previous call. */
  take(): ConnectionInfo[] {
    const out = this.opened
    this.opened = []
    return out
  }

  /** The connection last opened to an origin (the one a keep-alive request reuses). */
  last(origin: string): ConnectionInfo | undefined {
    return this.lastByOrigin.get(origin)
  }
}
