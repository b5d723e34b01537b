import { randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import Router, { type RouterMiddleware } from '@koa/router'
import Koa, { type Context, type Middleware } from 'koa'
import type { AddressInfo } from 'node:net'
import {
  CALL_NAME_PATTERN,
  WEB_HOST_PATHS,
  type CallResult,
  type EventSubscribe,
  type HandlerTable,
} from '../contract/transport.ts'
import { encodeFramed, FRAMED_ANSWER, type Utf8Of } from '../contract/framed-answer.ts'
import { refuseReason } from './request-guard.ts'
import { readStatic } from './static-files.ts'

export interface WebHostOptions {
  handlers: HandlerTable
  /** Subscribes to contract events; returns the unsubscribe function. */
  subscribe?: EventSubscribe
  /** Folder of the built renderer (`out/renderer`). */
  rendererDir: string
  /** Default 0: a free port. One in use rejects with the listen error (its `code` EADDRINUSE). */
  port?: number
  /** Default: 32 random bytes, base64url. */
  token?: string
  /** Largest call body accepted. */
  maxBodyBytes?: number
  /**
   * Strings of a call's result that are kept bytes as they are, given without reading them (the console's
   * exchange views: `http/exchange-view.ts` `keptUtf8`): a framed answer sends those bytes.
   */
  utf8Of?: Utf8Of
}

export interface RunningWebHost {
  /** Origin, e.g. http://127.0.0.1:5173 */
  origin: string
  /** What to open: the origin with the per-launch token in the fragment (never sent over the network). */
  url: string
  port: number
  token: string
  stop(): Promise<void>
}

const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; worker-src 'self' blob:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"

function refusal(code: string, what: string, cause: string, fix: string): CallResult<never> {
  return { ok: false, error: { code, what, cause, fix } }
}

/**
 * Answers a contract result or a refusal, never cached, as bytes: plain JSON, or framed when it holds large
 * strings (`contract/framed-answer.ts`: a 10 MB response body travels as its own bytes, neither escaped into
 * the JSON here nor parsed out of it by the page; a body shown as kept is sent from the kept bytes, never
 * decoded here: `utf8Of`). Bytes, not a string: a string body would be measured (its UTF-8 length, for
 * content-length) and then encoded again on the way out.
 */
function json(ctx: Context, status: number, body: unknown, utf8Of?: Utf8Of): void {
  ctx.status = status
  ctx.set('cache-control', 'no-store')
  const framed = encodeFramed(body, { utf8Of })
  if (framed) {
    ctx.type = FRAMED_ANSWER.type
    ctx.set(FRAMED_ANSWER.headBytesHeader, String(framed[0]!.byteLength))
    ctx.body = Buffer.concat(framed)
    return
  }
  ctx.type = 'application/json; charset=utf-8'
  ctx.body = Buffer.from(JSON.stringify(body))
}

async function readBody(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    size += (chunk as Buffer).length
    if (size > limit) return undefined
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks)
}

/** Failures become the contract's INTERNAL refusal (koa's own error printing stays off). */
const answerFailures: Middleware = async (ctx, next) => {
  try {
    await next()
  } catch (err) {
    if (ctx.headerSent || !ctx.writable) ctx.res.destroy()
    else
      json(
        ctx,
        500,
        refusal(
          'INTERNAL',
          'The console failed to answer.',
          (err as Error).message,
          'Report this with the steps that led to it.',
        ),
      )
  }
}

/** The gate: every request, static files included, passes the Host and Origin checks (the token only for the API). */
function gate(port: () => number, token: string): Middleware {
  return async (ctx, next) => {
    const refused = refuseReason(ctx.req, port(), token, ctx.path.startsWith('/api/'))
    if (refused) {
      json(
        ctx,
        403,
        refusal(
          'ACCESS_REFUSED',
          'The console refused the request.',
          refused,
          'Open the console through the URL it printed when it last started (it carries the per-launch token; a tab left open from an earlier start has an old one).',
        ),
      )
      return
    }
    await next()
  }
}

/** The input of a call's body `{ "input": … }`, or the refusal to answer when the body is too large or not JSON. */
async function callInput(
  ctx: Context,
  name: string,
  maxBody: number,
): Promise<{ input: unknown } | { refused: [number, CallResult<never>] }> {
  const body = await readBody(ctx.req, maxBody)
  if (!body)
    return {
      refused: [
        413,
        refusal(
          'INVALID_INPUT',
          `The call ${name} sent more than ${maxBody} bytes.`,
          'The input is larger than the console accepts in one call.',
          'Send a smaller input.',
        ),
      ],
    }
  try {
    return { input: body.length ? (JSON.parse(body.toString('utf8')) as { input?: unknown }).input : undefined }
  } catch (err) {
    return {
      refused: [
        400,
        refusal(
          'INVALID_INPUT',
          `The call ${name} sent a body that is not JSON.`,
          (err as Error).message,
          'Send {"input": …} as JSON.',
        ),
      ],
    }
  }
}

/** `POST /api/call/<domain.verb>`: the call's result, or a refusal for an unknown call or an unreadable body. */
function answerCall(handlers: HandlerTable, maxBody: number, utf8Of: Utf8Of | undefined): RouterMiddleware {
  return async (ctx) => {
    const name = ctx.params.name!
    const handler = CALL_NAME_PATTERN.test(name) && Object.hasOwn(handlers, name) ? handlers[name] : undefined
    if (!handler) {
      json(
        ctx,
        404,
        refusal(
          'NOT_FOUND',
          `No contract call "${name}".`,
          'The renderer and the main side are from different builds, or the name is misspelt.',
          'Rebuild the renderer (npm run build) and reload.',
        ),
      )
      return
    }
    const read = await callInput(ctx, name, maxBody)
    if ('refused' in read) {
      json(ctx, ...read.refused)
      return
    }
    json(ctx, 200, await handler(read.input), utf8Of)
  }
}

/** `GET /api/events`: a server-sent event stream, kept in `streams` until the client goes. */
function eventStream(streams: Set<ServerResponse>): RouterMiddleware {
  return (ctx) => {
    // The stream is written by hand from here on: koa must not answer for it.
    ctx.respond = false
    const res = ctx.res
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
    })
    res.write(': connected\n\n')
    streams.add(res)
    ctx.req.on('close', () => streams.delete(res))
  }
}

/** The API: contract calls and the event stream; any other method or path under /api/ is refused. */
function apiRoutes(handlers: HandlerTable, maxBody: number, streams: Set<ServerResponse>, utf8Of: Utf8Of | undefined) {
  const api = new Router()
  api.get(WEB_HOST_PATHS.events, eventStream(streams))
  api.post(`${WEB_HOST_PATHS.call}:name`, answerCall(handlers, maxBody, utf8Of))
  api.all(`${WEB_HOST_PATHS.call}:name`, (ctx) => {
    json(
      ctx,
      405,
      refusal(
        'INVALID_INPUT',
        `${ctx.method} is not a contract call.`,
        'Contract calls are POST requests.',
        'POST a JSON body {"input": …}.',
      ),
    )
  })
  api.all(/^\/api\//, (ctx) => {
    json(
      ctx,
      404,
      refusal(
        'NOT_FOUND',
        `No API path ${ctx.path}.`,
        'Only /api/call/<name> and /api/events exist.',
        'Check the renderer build.',
      ),
    )
  })
  return api.routes()
}

/** Everything else: the built renderer, GET and HEAD only. */
function rendererFiles(rendererDir: string): Middleware {
  return async (ctx) => {
    if (ctx.path.startsWith('/api/')) return
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.status = 405
      ctx.set('allow', 'GET, HEAD')
      return
    }
    const file = await readStatic(rendererDir, ctx.path)
    if (!file) {
      ctx.status = 404
      ctx.type = 'text/plain; charset=utf-8'
      ctx.body = `Not found: ${ctx.path}`
      return
    }
    ctx.status = 200
    ctx.set({
      'cache-control': file.immutable ? 'public, max-age=31536000, immutable' : 'no-store',
      'content-security-policy': CSP,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cross-origin-opener-policy': 'same-origin',
    })
    ctx.type = file.contentType
    ctx.body = file.body
  }
}

/**
 * Serves the built renderer and the contract on 127.0.0.1: `POST /api/call/<domain.verb>` with
 * `{ "input": … }` answers the call's result; `GET /api/events` streams contract events (server-sent
 * events). Every request passes the Host and Origin checks; calls and events need the per-launch token.
 * Routing is koa and @koa/router; the handlers answer as the contract says (results, never throws).
 */
export async function startWebHost(options: WebHostOptions): Promise<RunningWebHost> {
  const token = options.token ?? randomBytes(32).toString('base64url')
  const maxBody = options.maxBodyBytes ?? 32 * 1024 * 1024
  const streams = new Set<ServerResponse>()
  let port = 0

  const app = new Koa()
  app.silent = true
  app.use(answerFailures)
  app.use(gate(() => port, token))
  app.use(apiRoutes(options.handlers, maxBody, streams, options.utf8Of))
  app.use(rendererFiles(options.rendererDir))
  const server = createServer(app.callback())

  // A port that cannot be had rejects here, before anything is subscribed (the caller may try another).
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })
  port = (server.address() as AddressInfo).port
  const unsubscribe = options.subscribe?.((event) => {
    const frame = `event: ${event.name}\ndata: ${JSON.stringify(event.payload)}\n\n`
    for (const res of streams) res.write(frame)
  })
  const origin = `http://127.0.0.1:${port}`
  return {
    origin,
    url: `${origin}/#${WEB_HOST_PATHS.tokenFragment}=${token}`,
    port,
    token,
    async stop() {
      unsubscribe?.()
      for (const res of streams) res.end()
      streams.clear()
      await new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
    },
  }
}
