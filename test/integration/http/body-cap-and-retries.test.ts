import type { IncomingMessage, ServerResponse } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isAppError, type AppError } from '../../../src-main/core/app-error.ts'
import { ExchangeLog } from '../../../src-main/http/exchange-log.ts'
import { BODY_PREVIEW_BYTES } from '../../../src-main/http/bounded-dispatch.ts'
import { HttpClient } from '../../../src-main/http/http-client.ts'
import type { RetryPolicy } from '../../../src-main/http/retry-policy.ts'
import { createTestPki, startHttpsServer, type RunningServer, type TestPki } from './tls-fixture.ts'

const MIB = 1024 * 1024
let pki: TestPki
let server: RunningServer
/** What the server does next, per path: a queue of behaviours, the last one repeated. */
const scripts = new Map<string, Array<(req: IncomingMessage, res: ServerResponse) => void>>()
const hits = new Map<string, number>()
const clients: HttpClient[] = []

beforeAll(async () => {
  pki = await createTestPki()
  server = await startHttpsServer({ key: pki.server.keyPem, cert: pki.server.certPem }, (req, res) => {
    const path = new URL(req.url ?? '/', 'https://x').pathname
    hits.set(path, (hits.get(path) ?? 0) + 1)
    const queue = scripts.get(path) ?? []
    const next = queue.length > 1 ? queue.shift()! : queue[0]
    if (!next) {
      res.statusCode = 404
      res.end()
      return
    }
    // Read the request body first, so a POST is answered as a whole.
    req.resume()
    req.on('end', () => next(req, res))
  })
})
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()))
  await server?.close()
})

function script(path: string, ...steps: Array<(req: IncomingMessage, res: ServerResponse) => void>): string {
  scripts.set(path, steps)
  hits.set(path, 0)
  return `${server.url}${path}`
}

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}) =>
  (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers })
    res.end(JSON.stringify(body))
  }
const reset = (req: IncomingMessage) => req.socket.destroy()

/** A client whose retries sleep nothing and are recorded. */
function client(options: { maxBodyBytes?: number; retry?: Partial<RetryPolicy> } = {}) {
  const sleeps: number[] = []
  const log = new ExchangeLog({ bodyCap: 4 * MIB })
  const c = new HttpClient({
    environment: {
      id: 'env',
      kind: 'local-sandbox',
      origins: [server.url],
      trust: { mode: 'ca-bundle', caPem: pki.ca.certPem },
    },
    identity: { id: 'i', certPem: pki.client.certPem, keyPem: pki.client.keyPem },
    log,
    ...(options.maxBodyBytes ? { maxBodyBytes: options.maxBodyBytes } : {}),
    retry: {
      sleep: async (ms) => {
        sleeps.push(ms)
      },
      random: () => 0.5,
      ...options.retry,
    },
  })
  clients.push(c)
  return { c, log, sleeps }
}

async function failure(p: Promise<unknown>): Promise<AppError> {
  try {
    await p
  } catch (err) {
    if (isAppError(err)) return err
    throw err
  }
  throw new Error('expected the request to fail')
}

describe('response bodies are bounded', () => {
  it('a Content-Length over the cap is refused after the preview, named in the error and kept cut in the log', async () => {
    const url = script('/declared', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(6 * MIB) })
      // Sent in 64 KiB writes; the client aborts after the preview, so most are never written.
      let sent = 0
      const pump = () => {
        while (sent < 6 * MIB) {
          sent += 64 * 1024
          if (!res.write(Buffer.alloc(64 * 1024, 0x61))) return void res.once('drain', pump)
        }
        res.end()
      }
      res.on('error', () => {})
      pump()
    })
    const { c, log } = client({ maxBodyBytes: 2 * MIB })
    const err = await failure(c.request({ method: 'GET', url, label: 'big page' }))
    expect(err.code).toBe('RESPONSE_TOO_LARGE')
    expect(err.what).toContain('6 MiB (6291456 bytes) (its Content-Length)')
    expect(err.what).toContain('over the 2 MiB')
    expect(err.fix).toContain('maxResponseBodyMiB')
    expect(err.fix).toContain('--max-body-mib')
    expect(err.details).toMatchObject({ contentLength: 6 * MIB, capBytes: 2 * MIB, previewBytes: BODY_PREVIEW_BYTES })
    expect(Number(err.details?.receivedBytes)).toBeLessThan(2 * MIB)
    const [x] = log.list()
    expect(x!.id).toBe(err.details?.exchangeId)
    expect(x!.error?.code).toBe('RESPONSE_TOO_LARGE')
    expect(x!.response).toMatchObject({ status: 200, body: { size: 6 * MIB, truncated: true } })
    expect(x!.response!.body!.text.length).toBe(BODY_PREVIEW_BYTES)
    // Not retried (a body over the cap will be over it again), and the client goes on working.
    expect(hits.get('/declared')).toBe(1)
    const ok = await c.request({ method: 'GET', url: script('/small', json(200, { ok: 1 })) })
    expect(ok.json()).toEqual({ ok: 1 })
  })

  it('without a Content-Length, reading stops once the cap is crossed', async () => {
    const url = script('/chunked', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.write('{"Data":{"Transaction":[')
      let sent = 0
      const pump = () => {
        while (sent < 8 * MIB) {
          sent += 64 * 1024
          if (!res.write(Buffer.alloc(64 * 1024, 0x20))) return void res.once('drain', pump)
        }
        res.end(']}}')
      }
      res.on('error', () => {})
      pump()
    })
    const { c, log } = client({ maxBodyBytes: 3 * MIB })
    const err = await failure(c.request({ method: 'GET', url }))
    expect(err.code).toBe('RESPONSE_TOO_LARGE')
    expect(err.what).toContain('more than 3 MiB')
    expect(err.details?.contentLength).toBeUndefined()
    expect(Number(err.details?.receivedBytes)).toBeGreaterThan(3 * MIB)
    expect(Number(err.details?.receivedBytes)).toBeLessThan(4 * MIB)
    const x = log.list()[0]!
    expect(x.response!.body).toMatchObject({ truncated: true })
    expect(x.response!.body!.text.startsWith('{"Data":{"Transaction":[')).toBe(true)
    expect(x.response!.body!.text.length).toBe(BODY_PREVIEW_BYTES)
  })

  it('a body at the cap is read whole; a request may set its own cap; a cap under 1 KiB is refused', async () => {
    const body = Buffer.alloc(2 * MIB, 0x62)
    const url = script('/exact', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' })
      res.end(body)
    })
    const { c } = client({ maxBodyBytes: 2 * MIB })
    expect((await c.request({ method: 'GET', url })).body.length).toBe(2 * MIB)
    expect((await failure(c.request({ method: 'GET', url, maxBodyBytes: MIB }))).code).toBe('RESPONSE_TOO_LARGE')
    expect((await failure(c.request({ method: 'GET', url, maxBodyBytes: 10 }))).code).toBe('INVALID_INPUT')
    expect(() => client({ maxBodyBytes: 0.5 })).toThrow(/whole number of bytes/)
  })
})

describe('safe requests are retried, each try in the log', () => {
  it('a GET answered 503, then 502, then 200 succeeds on the third try with backoff', async () => {
    const url = script('/flaky', json(503, { e: 1 }), json(502, { e: 2 }), json(200, { ok: true }))
    const { c, log, sleeps } = client()
    const res = await c.request({ method: 'GET', url, label: 'accounts' })
    expect(res.status).toBe(200)
    expect(res.tries).toBe(3)
    // random 0.5: 3/4 of 500 ms, then of 1000 ms.
    expect(sleeps).toEqual([375, 750])
    const labels = log.list().map((x) => `${x.response?.status} ${x.label}`)
    expect(labels).toEqual([
      '503 accounts',
      '502 accounts (try 2 of 3: the answer was 503)',
      '200 accounts (try 3 of 3: the answer was 502)',
    ])
  })

  it('a reset GET is sent again on a new connection', async () => {
    const url = script('/reset-once', reset, json(200, { ok: true }))
    const { c, log } = client()
    const res = await c.request({ method: 'GET', url, label: 'balances' })
    expect(res.status).toBe(200)
    expect(log.list().map((x) => x.error?.code ?? x.response?.status)).toEqual(['CONNECTION_RESET', 200])
    expect(log.list()[1]!.label).toBe('balances (try 2 of 3: the connection was reset before the answer)')
  })

  it('a server that accepted the certificate and then drops requests is tried three times, as resets', async () => {
    // A dropped request on a fresh mutual-TLS connection can look like a TLS 1.3 refusal of the certificate (no
    // alert, nothing read). The server answered this certificate before, so it is read as a reset and retried.
    let answered = 0
    const dropping = await startHttpsServer(
      {
        key: pki.server.keyPem,
        cert: pki.server.certPem,
        ca: pki.ca.certPem,
        requestCert: true,
        rejectUnauthorized: false,
      },
      (req, res) => {
        req.resume()
        req.on('end', () => {
          if (answered++ === 0) res.writeHead(200, { connection: 'close' }).end('{}')
          else req.socket.destroy()
        })
      },
    )
    try {
      const sleeps: number[] = []
      const log = new ExchangeLog({ bodyCap: 4 * MIB })
      const c = new HttpClient({
        environment: {
          id: 'env',
          kind: 'local-sandbox',
          origins: [dropping.url],
          trust: { mode: 'ca-bundle', caPem: pki.ca.certPem },
        },
        identity: { id: 'i', certPem: pki.client.certPem, keyPem: pki.client.keyPem },
        log,
        retry: {
          sleep: async (ms) => {
            sleeps.push(ms)
          },
          random: () => 0.5,
        },
      })
      clients.push(c)
      expect((await c.request({ method: 'GET', url: `${dropping.url}/accounts`, label: 'accounts' })).status).toBe(200)
      // A new connection for each try (the server closes each), the certificate asked for on each.
      const err = await failure(c.request({ method: 'GET', url: `${dropping.url}/balances`, label: 'balances' }))
      expect(err.code).toBe('CONNECTION_RESET')
      expect(err.what).toMatch(/on each of 3 tries/)
      expect(log.list().map((x) => x.error?.code ?? x.response?.status)).toEqual([
        200,
        'CONNECTION_RESET',
        'CONNECTION_RESET',
        'CONNECTION_RESET',
      ])
      expect(sleeps).toHaveLength(2)
      expect(dropping.clientCertificates).toHaveLength(4)
    } finally {
      await dropping.close()
    }
  })

  it('429 with Retry-After in seconds or as a date is honoured', async () => {
    const { c, sleeps } = client()
    const url = script('/throttled', json(429, {}, { 'retry-after': '2' }), json(200, { ok: true }))
    expect((await c.request({ method: 'GET', url })).status).toBe(200)
    const at = new Date(Date.now() + 5_000).toUTCString()
    const url2 = script('/throttled-date', json(429, {}, { 'retry-after': at }), json(200, { ok: true }))
    expect((await c.request({ method: 'GET', url: url2 })).status).toBe(200)
    expect(sleeps[0]).toBe(2000)
    expect(sleeps[1]).toBeGreaterThanOrEqual(3000)
    expect(sleeps[1]).toBeLessThanOrEqual(6000)
  })

  it('a Retry-After over the ceiling is not slept through: the error names the wait', async () => {
    const url = script(
      '/closed-for-hours',
      json(429, { Code: '429', Errors: [{ ErrorCode: 'U000', Message: 'slow down' }] }, { 'retry-after': '7200' }),
    )
    const { c, log, sleeps } = client()
    const err = await failure(c.request({ method: 'GET', url }))
    expect(err.what).toContain('asked to wait 7200 s')
    expect(err.cause).toContain('at most 60 s')
    expect(err.fix).toMatch(/run the step again after \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/)
    expect(err.details).toMatchObject({ status: 429, retryAfterSeconds: 7200, exchangeId: log.list()[0]!.id })
    expect(sleeps).toEqual([])
    expect(hits.get('/closed-for-hours')).toBe(1)
  })

  it('tries are bounded: the last answer comes back, or the last error says how many tries', async () => {
    const { c, log } = client()
    const res = await c.request({ method: 'GET', url: script('/down', json(503, {})) })
    expect(res.status).toBe(503)
    expect(res.tries).toBe(3)
    expect(hits.get('/down')).toBe(3)
    const err = await failure(c.request({ method: 'GET', url: script('/gone', reset) }))
    expect(err.code).toBe('CONNECTION_RESET')
    expect(err.what).toContain('(on each of 3 tries)')
    expect(err.details?.tries).toBe(3)
    expect(log.list()).toHaveLength(6)
    // 501 is not worth a retry.
    await c.request({ method: 'GET', url: script('/nope', json(501, {})) })
    expect(hits.get('/nope')).toBe(1)
  })

  it('a POST is retried only when asked and with an idempotency key; a GET may opt out', async () => {
    const { c } = client()
    await c.request({ method: 'POST', url: script('/post-plain', json(503, {})), body: '{}' })
    expect(hits.get('/post-plain')).toBe(1)
    await c.request({ method: 'POST', url: script('/post-nokey', json(503, {})), body: '{}', retry: true })
    expect(hits.get('/post-nokey')).toBe(1)
    const keys: string[] = []
    const url = script(
      '/post-key',
      (req, res) => {
        keys.push(String(req.headers['x-idempotency-key']))
        reset(req)
        void res
      },
      json(201, { ok: true }),
    )
    const res = await c.request({
      method: 'POST',
      url,
      body: '{"a":1}',
      headers: { 'x-idempotency-key': 'k-1' },
      retry: true,
    })
    expect(res.status).toBe(201)
    expect(keys).toEqual(['k-1'])
    expect(hits.get('/post-key')).toBe(2)
    await c.request({ method: 'GET', url: script('/get-once', json(503, {})), retry: false })
    expect(hits.get('/get-once')).toBe(1)
  })
})
