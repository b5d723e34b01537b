// The phases of one exchange, from the marks the HTTP client takes and the connection it used: connect and
// TLS only on a new connection (a reused one spent none), first byte from when the request could go out.
import type { TimingsDto } from '../contract/exchange.ts'
import type { ConnectionInfo } from './connection-tracker.ts'

/** Milliseconds of each phase: `t0` the request's start, `headersAt` the response head, `end` the end. */
export function exchangeTimings(
  t0: number,
  headersAt: number | undefined,
  end: number,
  conn: ConnectionInfo | undefined,
  fresh: boolean,
): TimingsDto {
  const round = (n: number) => Math.max(0, Math.round(n * 100) / 100)
  if (!fresh || !conn) return { connect: 0, tls: 0, firstByte: round((headersAt ?? end) - t0), total: round(end - t0) }
  const tcpAt = conn.tcpAt ?? conn.tlsAt ?? end
  const sentAt = conn.tlsAt ?? tcpAt
  const timings: TimingsDto = {
    connect: round(tcpAt - (conn.lookupAt ?? conn.startedAt)),
    tls: round(conn.tlsAt !== undefined ? conn.tlsAt - tcpAt : 0),
    firstByte: headersAt !== undefined ? round(headersAt - Math.max(t0, sentAt)) : 0,
    total: round(end - t0),
  }
  if (conn.lookupAt) timings.dns = round(conn.lookupAt - conn.startedAt)
  return timings
}
