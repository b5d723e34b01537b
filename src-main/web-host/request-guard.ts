import { timingSafeEqual } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import { WEB_HOST_PATHS } from '../contract/transport.ts'

/**
 * The web host's gate against other local processes and DNS rebinding: the Host header must name the
 * loopback address and port it listens on, a cross-origin Origin is refused, and contract calls carry the
 * per-launch token. Returns why a request is refused, or undefined when it may pass.
 */
export function refuseReason(
  req: IncomingMessage,
  port: number,
  token: string,
  needsToken: boolean,
): string | undefined {
  const allowedHosts = [`127.0.0.1:${port}`, `localhost:${port}`]
  const host = req.headers.host
  if (!host || !allowedHosts.includes(host))
    return `Host header "${host ?? ''}" is not this console's loopback address (expected 127.0.0.1:${port})`
  const origin = req.headers.origin
  if (origin !== undefined && origin !== 'null' && !allowedHosts.some((h) => origin === `http://${h}`)) {
    return `Origin "${origin}" is not this console's origin (http://127.0.0.1:${port})`
  }
  if (origin === 'null') return 'Origin "null" (a sandboxed or file page) may not call the console'
  if (!needsToken) return undefined
  const sent = req.headers[WEB_HOST_PATHS.tokenHeader]
  if (typeof sent !== 'string' || !sameSecret(sent, token))
    return 'missing or wrong per-launch token (each start of the console makes a new one): open the URL it printed when it last started'
  return undefined
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}
