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

type ConnectArgs = Parameters<Connector.connector>[0]
type Connected = (err: Error | null, socket: Socket | null) => void

/** A connection opened ahead of its first request, until undici takes it (or it goes unused). */
interface Warm {
  info: ConnectionInfo
  socket: Socket | undefined
  /** How the handshake ended, once it has. */
  outcome?: { err: Error | null; socket: Socket | null }
  /** undici's callback, when it took the connection before the handshake ended. */
  taker?: Connected
  timer: ReturnType<typeof setTimeout>
}

/** How long a connection opened ahead waits for its request before it is closed (the agents' keep-alive). */
export const PRECONNECT_IDLE_MS = 10_000

/**
 * An undici connector that records, for every connection it opens, DNS/TCP/TLS times, whether the
 * server asked for a client certificate, the TLS version and cipher, the server certificate and any
 * TLS alert. The HTTP client reads `opened` around each request (requests to one client are serialised,
 * so the connections opened during a request are that request's).
 *
 * `preconnect` opens a connection before its first request is sent (the console does while it prepares
 * that request: reads discovery, checks and signs): undici takes it when it connects for the request, which
 * then waits for what is left of the handshake, or for none of it. Its phases and TLS facts are that
 * request's, as for any connection opened for it; unused, it is closed after `PRECONNECT_IDLE_MS`; failed,
 * undici's connect opens a new one, which fails or succeeds on its own.
 */
export class ConnectionTracker {
  /** Connections opened since the last `take()`. */
  private opened: ConnectionInfo[] = []
  /** The last connection per origin (keep-alive reuses it). */
  private readonly lastByOrigin = new Map<string, ConnectionInfo>()
  /** Connections opened ahead, by origin, not yet taken. */
  private readonly warm = new Map<string, Warm>()
  /** One undici connector per origin (see the constructor). */
  private readonly connectors = new Map<string, Connector.connector>()
  readonly connect: Connector.connector

  constructor(
    private readonly tlsOptions: Connector.BuildOptions,
    private readonly idleMs = PRECONNECT_IDLE_MS,
  ) {
    // One undici connector per origin: a connector keeps TLS sessions by host name alone, so origins on
    // one host (the local sandbox's three ports on 127.0.0.1) would offer each other's sessions, which
    // the other server cannot resume. Per origin, a reconnect resumes its own session.
    this.connect = (opts, callback) => {
      const origin = originOfArgs(opts)
      const done = callback as Connected
      const warm = this.takeWarm(origin)
      if (warm) {
        this.opened.push(warm.info)
        this.lastByOrigin.set(origin, warm.info)
        if (warm.outcome) {
          const { err, socket } = warm.outcome
          queueMicrotask(() => done(err, socket))
        } else warm.taker = done
        return warm.socket
      }
      const { info, socket } = this.open(origin, opts, done)
      this.opened.push(info)
      this.lastByOrigin.set(origin, info)
      return socket
    }
  }

  /**
   * Opens a connection to the origin of `url` now, for a request about to be sent there. Nothing happens when
   * a connection to it is open (or being opened ahead) already.
   */
  preconnect(url: URL): void {
    const args: ConnectArgs = {
      protocol: url.protocol,
      hostname: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
      host: url.host,
      port: url.port,
    }
    const origin = originOfArgs(args)
    const last = this.lastByOrigin.get(origin)?.socket
    if (this.warm.has(origin) || (last && !last.destroyed)) return
    /** The connection once kept; the handshake's end, should the connector report it before that. */
    const slot: { warm?: Warm; early?: Warm['outcome'] } = {}
    let opened: ReturnType<ConnectionTracker['open']>
    try {
      opened = this.open(origin, args, (err, socket) => {
        const warm = slot.warm
        if (!warm) return void (slot.early = { err, socket })
        if (warm.taker) return warm.taker(err, socket)
        warm.outcome = { err, socket }
        // A failed connection is not handed on: undici's connect opens its own, which reports its failure.
        if (err) this.forget(origin, warm)
      })
    } catch {
      // Options Node refuses at once: the request's own connect meets them and reports them.
      return
    }
    if (slot.early?.err) return
    const kept: Warm = {
      info: opened.info,
      socket: opened.socket,
      timer: setTimeout(() => {
        this.forget(origin, kept)
        kept.socket?.destroy()
      }, this.idleMs),
    }
    if (slot.early) kept.outcome = slot.early
    kept.timer.unref?.()
    slot.warm = kept
    this.warm.set(origin, kept)
    // Closed by the server before its request came: the request opens another.
    opened.socket?.once('close', () => this.forget(origin, kept))
  }

  /** Closes the connections opened ahead that no request took. */
  close(): void {
    for (const [origin, warm] of [...this.warm]) {
      this.forget(origin, warm)
      warm.socket?.destroy()
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

  /** The connection opened ahead to `origin`, if it can still be used. */
  private takeWarm(origin: string): Warm | undefined {
    const warm = this.warm.get(origin)
    if (!warm) return undefined
    this.forget(origin, warm)
    if (warm.outcome?.err || warm.socket?.destroyed) return undefined
    return warm
  }

  /** Stops keeping `warm` (a connection handed to undici, closed, failed or unused). */
  private forget(origin: string, warm: Warm): void {
    clearTimeout(warm.timer)
    if (this.warm.get(origin) === warm) this.warm.delete(origin)
  }

  /** Opens one connection through the origin's connector, its phases and TLS facts recorded in its info. */
  private open(origin: string, opts: ConnectArgs, done: Connected): { info: ConnectionInfo; socket?: Socket } {
    let base = this.connectors.get(origin)
    if (!base) this.connectors.set(origin, (base = buildConnector(this.tlsOptions)))
    const info: ConnectionInfo = { origin, startedAt: performance.now(), clientCertRequested: false }
    // undici's connector returns the socket it opens (its type says void): kept to time the phases.
    const socket = base(opts, (err, sock) => {
      info.tlsAt = performance.now()
      if (err) info.error ??= err
      else if (sock && 'getPeerCertificate' in sock) describeTls(info, sock as TLSSocket)
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
    return socket ? { info, socket } : { info }
  }
}

function originOfArgs(opts: ConnectArgs): string {
  return `${opts.protocol}//${opts.hostname}:${opts.port || (opts.protocol === 'https:' ? '443' : '80')}`
}
