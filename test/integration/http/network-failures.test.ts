import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isAppError } from '../../../src-main/core/app-error.ts'
import { ExchangeLog } from '../../../src-main/http/exchange-log.ts'
import { HttpClient } from '../../../src-main/http/http-client.ts'
import {
  closedPort,
  createTestPki,
  startHttpsServer,
  startTcpServer,
  type RunningServer,
  type TestPki,
} from './tls-fixture.ts'

let pki: TestPki
let dropping: RunningServer
let slow: RunningServer
let stalling: RunningServer
let plainHttp: RunningServer
const clients: HttpClient[] = []
const timers = new Set<NodeJS.Timeout>()

beforeAll(async () => {
  pki = await createTestPki()
  const tls = { key: pki.server.keyPem, cert: pki.server.certPem }
  // Reads the request, then destroys the connection without answering.
  dropping = await startHttpsServer(tls, (req) => {
    req.socket.destroy()
  })
  // Answers after 2 s.
  slow = await startHttpsServer(tls, (_req, res) => {
    const t = setTimeout(() => res.end('late'), 2000)
    timers.add(t)
  })
  // Sends headers, then stalls the body.
  stalling = await startHttpsServer(tls, (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' })
    res.write('partial')
    const t = setTimeout(() => res.end('!'), 2000)
    timers.add(t)
  })
  // Speaks plain HTTP on the port the client expects TLS on.
  plainHttp = await startTcpServer((socket) => socket.end('HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n'))
})
afterAll(async () => {
  for (const t of timers) clearTimeout(t)
  await Promise.all(clients.map((c) => c.close()))
  await Promise.all([dropping, slow, stalling, plainHttp].map((s) => s?.close()))
})

function client(origins: string[], timeouts = {}, log = new ExchangeLog()): HttpClient {
  const c = new HttpClient({
    environment: { id: 'env', kind: 'local-sandbox', origins, trust: { mode: 'ca-bundle', caPem: pki.ca.certPem } },
    identity: { id: 'i', certPem: pki.client.certPem, keyPem: pki.client.keyPem },
    timeouts,
    log,
  })
  clients.push(c)
  return c
}

async function failure(p: Promise<unknown>) {
  try {
    await p
  } catch (err) {
    if (isAppError(err)) return err
    throw err
  }
  throw new Error('expected the request to fail')
}

describe('network failures, for real', () => {
  it('a closed port is CONNECTION_REFUSED, with a fix naming the local sandbox', async () => {
    const url = `https://127.0.0.1:${await closedPort()}`
    const log = new ExchangeLog()
    const err = await failure(client([url], {}, log).request({ method: 'GET', url: `${url}/x` }))
    expect(err.code).toBe('CONNECTION_REFUSED')
    expect(err.fix).toMatch(/start the local sandbox/)
    expect(log.list()[0]!.error?.code).toBe('CONNECTION_REFUSED')
    expect(log.list()[0]!.response).toBeUndefined()
  })

  it('a server that drops the connection without answering is CONNECTION_RESET (not a certificate refusal)', async () => {
    const err = await failure(
      client([dropping.url]).request({
        method: 'POST',
        url: `${dropping.url}/token`,
        body: 'grant_type=client_credentials',
      }),
    )
    expect(err.code).toBe('CONNECTION_RESET')
    expect(err.cause).toMatch(/closed the connection before sending a response/)
  })

  it('a slow server is TIMEOUT waiting for the headers', async () => {
    const err = await failure(
      client([slow.url], { headersMs: 300 }).request({ method: 'GET', url: `${slow.url}/slow` }),
    )
    expect(err.code).toBe('TIMEOUT')
    expect(err.cause).toMatch(/no response headers within 300 ms/)
  })

  it('a stalled body is TIMEOUT reading the body', async () => {
    const err = await failure(
      client([stalling.url], { bodyMs: 300 }).request({ method: 'GET', url: `${stalling.url}/stall` }),
    )
    expect(err.code).toBe('TIMEOUT')
    expect(err.cause).toMatch(/body stalled/)
  })

  it('a whole-request time limit is TIMEOUT too', async () => {
    const err = await failure(client([slow.url]).request({ method: 'GET', url: `${slow.url}/slow`, timeoutMs: 300 }))
    expect(err.code).toBe('TIMEOUT')
    expect(err.cause).toMatch(/within 300 ms/)
  })

  it('a port speaking plain HTTP is TLS_HANDSHAKE_FAILED naming the likely cause', async () => {
    const err = await failure(client([plainHttp.url]).request({ method: 'GET', url: `${plainHttp.url}/` }))
    expect(err.code).toBe('TLS_HANDSHAKE_FAILED')
    expect(err.cause).toMatch(/did not answer with TLS/)
  })

  it('an unknown host name is DNS_NOT_FOUND', async () => {
    const url = 'https://no-such-host.invalid'
    const err = await failure(client([url], { connectMs: 5000 }).request({ method: 'GET', url: `${url}/x` }))
    expect(err.code).toBe('DNS_NOT_FOUND')
    expect(err.cause).toMatch(/no-such-host.invalid/)
  })
})
