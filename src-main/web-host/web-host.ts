import { randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { CALL_NAME_PATTERN, WEB_HOST_PATHS, type CallResult, type EventSubscribe, type HandlerTable } from '../contract/transport.ts'
import { refuseReason } from './request-guard.ts'
import { readStatic } from './static-files.ts'

export interface WebHostOptions {
  handlers: HandlerTable
  /** Subscribes to contract events; returns the unsubscribe function. */
  subscribe?: EventSubscribe
  /** Folder of the built renderer (`out/renderer`). */
  rendererDir: string
  /** Default 0: a free port. */
  port?: number
  /** Default: 32 random bytes, base64url. */
  token?: string
  /** Largest call body accepted. */
  maxBodyBytes?: number
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

const CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; worker-src 'self' blob:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body)
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(text) })
  res.end(text)
}

function refusal(code: string, what: string, cause: string, fix: string): CallResult<never> {
  return { ok: false, error: { code, what, cause, fix } }
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

/**
 * Serves the built renderer and the contract on 127.0.0.1: `POST /api/call/<domain.verb>` with
 * `{ "input": … }` answers the call's result; `GET /api/events` streams contract events (server-sent
 * events). Every request passes the Host and Origin checks; calls and events need the per-launch token.
 */
export async function startWebHost(options: WebHostOptions): Promise<RunningWebHost> {
  const token = options.token ?? randomBytes(32).toString('base64url')
  const maxBody = options.maxBodyBytes ?? 32 * 1024 * 1024
  const streams = new Set<ServerResponse>()
  let port = 0

  const server = createServer(async (req, res) => {
    try {
      const path = (req.url ?? '/').split('?')[0]!
      const isApi = path.startsWith('/api/')
      const refused = refuseReason(req, port, token, isApi)
      if (refused) {
        sendJson(res, 403, refusal('ACCESS_REFUSED', 'The console refused the request.', refused, 'Open the console through the URL it printed at start (it carries the per-launch token).'))
        return
      }
      if (path === WEB_HOST_PATHS.events && req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive' })
        res.write(': connected\n\n')
        streams.add(res)
        req.on('close', () => streams.delete(res))
        return
      }
      if (path.startsWith(WEB_HOST_PATHS.call)) {
        if (req.method !== 'POST') {
          sendJson(res, 405, refusal('INVALID_INPUT', `${req.method} is not a contract call.`, 'Contract calls are POST requests.', 'POST a JSON body {"input": …}.'))
          return
        }
        const name = path.slice(WEB_HOST_PATHS.call.length)
        const handler = CALL_NAME_PATTERN.test(name) && Object.hasOwn(options.handlers, name) ? options.handlers[name] : undefined
        if (!handler) {
          sendJson(res, 404, refusal('NOT_FOUND', `No contract call "${name}".`, 'The renderer and the main side are from different builds, or the name is misspelt.', 'Rebuild the renderer (npm run build) and reload.'))
          return
        }
        const body = await readBody(req, maxBody)
        if (!body) {
          sendJson(res, 413, refusal('INVALID_INPUT', `The call ${name} sent more than ${maxBody} bytes.`, 'The input is larger than the console accepts in one call.', 'Send a smaller input.'))
          return
        }
        let input: unknown
        try {
          input = body.length ? (JSON.parse(body.toString('utf8')) as { input?: unknown }).input : undefined
        } catch (err) {
          sendJson(res, 400, refusal('INVALID_INPUT', `The call ${name} sent a body that is not JSON.`, (err as Error).message, 'Send {"input": …} as JSON.'))
          return
        }
        sendJson(res, 200, await handler(input))
        return
      }
      if (isApi) {
        sendJson(res, 404, refusal('NOT_FOUND', `No API path ${path}.`, 'Only /api/call/<name> and /api/events exist.', 'Check the renderer build.'))
        return
      }
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.writeHead(405, { allow: 'GET, HEAD' }).end()
        return
      }
      const file = await readStatic(options.rendererDir, path)
      if (!file) {
        res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end(`Not found: ${path}`)
        return
      }
      res.writeHead(200, {
        'content-type': file.contentType,
        'content-length': file.body.length,
        'cache-control': file.immutable ? 'public, max-age=31536000, immutable' : 'no-store',
        'content-security-policy': CSP,
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
        'cross-origin-opener-policy': 'same-origin',
      })
      res.end(req.method === 'HEAD' ? undefined : file.body)
    } catch (err) {
      if (!res.headersSent) sendJson(res, 500, refusal('INTERNAL', 'The console failed to answer.', (err as Error).message, 'Report this with the steps that led to it.'))
      else res.destroy()
    }
  })

  const unsubscribe = options.subscribe?.((event) => {
    const frame = `event: ${event.name}\ndata: ${JSON.stringify(event.payload)}\n\n`
    for (const res of streams) res.write(frame)
  })

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })
  port = (server.address() as AddressInfo).port
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
