import { IncomingMessage, ServerResponse, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http'
import { Socket } from 'node:net'
import type { Context } from 'koa'
import type Provider from 'oidc-provider'

export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => Promise<unknown> | unknown

/** Cookies oidc-provider keeps its login session in. The sandbox never reuses a session (see stripSessionCookies). */
const SESSION_COOKIE = /^_session(\.legacy)?(\.sig)?$/

/**
 * Hands oidc-provider the sandbox's request (the same Node request and response; the Koa context stops
 * responding). Headers already set, such as `x-fapi-interaction-id`, stay on the response.
 */
export async function passToProvider(handler: NodeHandler, ctx: Context): Promise<void> {
  ctx.respond = false
  await handler(ctx.req, ctx.res)
}

/**
 * Removes oidc-provider's session cookies from the request: every authorisation is a fresh PSU login
 * for one consent (no single sign-on across consents, and no "another account is logged in" prompt).
 */
export function stripSessionCookies(headers: IncomingHttpHeaders): void {
  const cookie = headers.cookie
  if (!cookie) return
  const kept = cookie
    .split(';')
    .map((c) => c.trim())
    .filter((c) => c && !SESSION_COOKIE.test(c.split('=')[0]!))
  if (kept.length) headers.cookie = kept.join('; ')
  else delete headers.cookie
}

export interface InternalResponse {
  status: number
  headers: OutgoingHttpHeaders
  /** The response body as written. */
  body: Buffer
}

function syntheticRequest(
  method: string,
  url: string,
  headers: IncomingHttpHeaders,
): { req: IncomingMessage; res: ServerResponse; socket: Socket } {
  const socket = new Socket()
  // The sandbox's origins are HTTPS: oidc-provider sets secure cookies and builds https URLs.
  Object.defineProperty(socket, 'encrypted', { value: true })
  const req = new IncomingMessage(socket)
  req.method = method
  req.url = url
  req.headers = headers
  req.push(null)
  const res = new ServerResponse(req)
  return { req, res, socket }
}

/**
 * Runs one request through oidc-provider in process, without a network round trip, and returns the
 * status and headers it answered with. Used to follow the headless flow's redirects server-side.
 */
export async function internalRequest(
  handler: NodeHandler,
  method: string,
  url: string,
  headers: IncomingHttpHeaders,
): Promise<InternalResponse> {
  const { req, res, socket } = syntheticRequest(method, url, headers)
  const chunks: Buffer[] = []
  const keep = (chunk: unknown) => {
    if (typeof chunk === 'string' || chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk))
  }
  // Each of write's and end's overloads passes through as called; the first argument, when it is a body chunk, is kept.
  const { write, end } = res
  res.write = (...args: unknown[]): boolean => (keep(args[0]), Reflect.apply(write, res, args))
  res.end = (...args: unknown[]): typeof res => (keep(args[0]), Reflect.apply(end, res, args))
  try {
    await handler(req, res)
    return { status: res.statusCode, headers: res.getHeaders(), body: Buffer.concat(chunks) }
  } finally {
    socket.destroy()
  }
}

/** Runs `fn` with a request/response pair carrying `cookie`, for oidc-provider's interaction helpers. */
export async function withSyntheticExchange<T>(
  url: string,
  headers: IncomingHttpHeaders,
  fn: (req: IncomingMessage, res: ServerResponse) => Promise<T>,
): Promise<T> {
  const { req, res, socket } = syntheticRequest('GET', url, headers)
  try {
    return await fn(req, res)
  } finally {
    socket.destroy()
  }
}

/** The `name=value` pairs of Set-Cookie headers, joined as a Cookie request header. */
export function cookieHeaderFrom(setCookie: OutgoingHttpHeaders[string]): string {
  const list = Array.isArray(setCookie) ? setCookie : setCookie === undefined ? [] : [String(setCookie)]
  return list
    .map((c) => c.split(';')[0]!.trim())
    .filter((pair) => pair && !pair.endsWith('='))
    .join('; ')
}

/** The Node handler of the provider (its Koa app's callback). */
export function providerHandler(provider: Provider): NodeHandler {
  return provider.callback() as unknown as NodeHandler
}
