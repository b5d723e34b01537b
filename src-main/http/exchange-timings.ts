// The phases of one exchange, from the marks the HTTP client takes and the connection it used: connect and
// TLS only on a new connection (a reused one spent none), first byte from when the request could go out. A
// connection opened ahead of its request (`ConnectionTracker.preconnect`) counts in each phase only the time
// the request waited for it; the setup done before the request started is `preconnected`.
import type { TimingsDto } from '../contract/exchange.ts'
import type { ConnectionInfo } from './connection-tracker.ts'

const round = (n: number) => Math.max(0, Math.round(n * 100) / 100)

/** Milliseconds of each phase: `t0` the request's start, `headersAt` the response head, `end` the end. */
export function exchangeTimings(
  t0: number,
  headersAt: number | undefined,
  end: number,
  conn: ConnectionInfo | undefined,
  fresh: boolean,
): TimingsDto {
  if (!fresh || !conn) return { connect: 0, tls: 0, firstByte: round((headersAt ?? end) - t0), total: round(end - t0) }
  const tcpAt = conn.tcpAt ?? conn.tlsAt ?? end
  const sentAt = conn.tlsAt ?? tcpAt
  /** The part of a phase from `from` to `to` that the request waited through. */
  const waited = (from: number, to: number) => round(Math.min(to, end) - Math.max(from, t0))
  const timings: TimingsDto = {
    connect: waited(conn.lookupAt ?? conn.startedAt, tcpAt),
    tls: conn.tlsAt !== undefined ? waited(tcpAt, conn.tlsAt) : 0,
    firstByte: headersAt !== undefined ? round(headersAt - Math.max(t0, sentAt)) : 0,
    total: round(end - t0),
  }
  if (conn.lookupAt) timings.dns = waited(conn.startedAt, conn.lookupAt)
  if (conn.startedAt < t0) timings.preconnected = round(Math.min(sentAt, t0) - conn.startedAt)
  return timings
}
