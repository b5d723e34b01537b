import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isAppError } from '../../../src-main/core/app-error.ts'
import { ExchangeLog } from '../../../src-main/http/exchange-log.ts'
import { HttpClient } from '../../../src-main/http/http-client.ts'
import type { HttpEnvironment } from '../../../src-main/http/environment.ts'
import { createTestPki, startHttpsServer, type RunningServer, type TestPki } from './tls-fixture.ts'

let pki: TestPki
let tls13: RunningServer
let tls12: RunningServer
const clients: HttpClient[] = []

beforeAll(async () => {
  pki = await createTestPki()
  const options = {
    key: pki.server.keyPem,
    cert: pki.server.certPem,
    ca: pki.ca.certPem,
    requestCert: true,
    rejectUnauthorized: true,
  }
  tls13 = await startHttpsServer(options)
  tls12 = await startHttpsServer({ ...options, maxVersion: 'TLSv1.2' })
})
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()))
  await Promise.all([tls13?.close(), tls12?.close()])
})

function env(server: RunningServer): HttpEnvironment {
  return {
    id: 'env-1',
    kind: 'local-sandbox',
    origins: [server.url],
    trust: { mode: 'ca-bundle', caPem: pki.ca.certPem },
  }
}

function client(server: RunningServer, identity: 'good' | 'foreign' | 'none', log = new ExchangeLog()): HttpClient {
  const cert = identity === 'good' ? pki.client : pki.foreignClient
  const c = new HttpClient({
    environment: env(server),
    ...(identity === 'none' ? {} : { identity: { id: `id-${identity}`, certPem: cert.certPem, keyPem: cert.keyPem } }),
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

describe('mutual TLS against a real server (TLS 1.3 and 1.2)', () => {
  it('presents the client certificate, records timings and TLS facts, and reuses the connection', async () => {
    const log = new ExchangeLog()
    const c = client(tls13, 'good', log)
    const first = await c.request({ method: 'GET', url: `${tls13.url}/accounts`, label: 'accounts' })
    expect(first.status).toBe(200)
    expect(first.json()).toEqual({ ok: true, path: '/accounts' })
    const second = await c.request({ method: 'GET', url: `${tls13.url}/accounts/1` })
    expect(second.status).toBe(200)
    expect(tls13.clientCertificates.slice(-2)).toEqual(['SoftwareId123', 'SoftwareId123'])
    const [a, b] = log.list()
    expect(a!.label).toBe('accounts')
    expect(a!.presentedCertificate).toMatchObject({
      subjectDn: 'CN=SoftwareId123,OU=Org001,O=Example TPP,C=GB',
      sent: true,
    })
    expect(a!.presentedCertificate!.thumbprint).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(a!.tls).toMatchObject({ protocol: 'TLSv1.3', verification: 'on', clientCertificateRequested: true })
    expect(a!.tls!.serverCertificate!.subjectDn).toBe('CN=localhost')
    expect(a!.reusedConnection).toBe(false)
    expect(a!.timings.connect).toBeGreaterThan(0)
    expect(a!.timings.tls).toBeGreaterThan(0)
    expect(a!.timings.total).toBeGreaterThanOrEqual(a!.timings.firstByte)
    expect(b!.reusedConnection).toBe(true)
    expect(b!.timings.connect).toBe(0)
    expect(b!.timings.tls).toBe(0)
    // The body kept is a buffer of its own: not a view of memory it shares with the response head.
    expect(first.body.byteLength).toBe(first.body.buffer.byteLength)
    expect(first.body.toString()).toBe(JSON.stringify({ ok: true, path: '/accounts' }))
  })

  it('reads a body of many TLS records whole, byte for byte', async () => {
    const big = Buffer.from(Array.from({ length: 90_000 }, (_, i) => String.fromCharCode(97 + (i % 26))).join(''))
    const server = await startHttpsServer(
      {
        key: pki.server.keyPem,
        cert: pki.server.certPem,
        ca: pki.ca.certPem,
        requestCert: true,
        rejectUnauthorized: true,
      },
      (_req, res) => res.end(big),
    )
    try {
      const log = new ExchangeLog()
      const res = await client(server, 'good', log).request({ method: 'GET', url: `${server.url}/big` })
      expect(res.body.equals(big)).toBe(true)
      expect(log.list()[0]!.response!.body).toMatchObject({ size: big.length, truncated: false })
    } finally {
      await server.close()
    }
  })

  it('sends method, path with query, headers and body as given; returns status text and every response header, repeats included', async () => {
    const seen: { method?: string; url?: string; header?: string; body?: string } = {}
    const server = await startHttpsServer(
      {
        key: pki.server.keyPem,
        cert: pki.server.certPem,
        ca: pki.ca.certPem,
        requestCert: true,
        rejectUnauthorized: true,
      },
      (req, res) => {
        const chunks: Buffer[] = []
        req.on('data', (c: Buffer) => chunks.push(c))
        req.on('end', () => {
          Object.assign(seen, {
            method: req.method,
            url: req.url,
            header: req.headers['x-fapi-interaction-id'],
            body: Buffer.concat(chunks).toString(),
          })
          res.statusMessage = 'Created Here'
          res.setHeader('Set-Cookie', ['a=1', 'b=2'])
          res.setHeader('X-Jws-Signature', 'sig')
          res.writeHead(201)
          res.end()
        })
      },
    )
    try {
      const log = new ExchangeLog()
      const res = await client(server, 'good', log).request({
        method: 'POST',
        url: `${server.url}/pay?x=1&y=%2F`,
        headers: { 'x-fapi-interaction-id': 'id-1', 'content-type': 'application/json' },
        body: '{"a":1}',
      })
      expect(seen).toEqual({ method: 'POST', url: '/pay?x=1&y=%2F', header: 'id-1', body: '{"a":1}' })
      expect(res.status).toBe(201)
      expect(res.statusText).toBe('Created Here')
      expect(res.headers.filter(([k]) => k === 'set-cookie')).toEqual([
        ['set-cookie', 'a=1'],
        ['set-cookie', 'b=2'],
      ])
      expect(res.header('X-JWS-Signature')).toBe('sig')
      expect(res.body.length).toBe(0)
      expect(log.list()[0]!.response).toMatchObject({ status: 201, statusText: 'Created Here' })
    } finally {
      await server.close()
    }
  })

  it('a connection opened ahead (preconnect): the request takes it, its TLS facts and the setup done before it recorded', async () => {
    const log = new ExchangeLog()
    const before = tls13.connections
    const c = client(tls13, 'good', log)
    c.preconnect(`${tls13.url}/register`)
    c.preconnect(`${tls13.url}/register`) // one is under way: no second
    await new Promise((r) => setTimeout(r, 50))
    expect(log.list()).toEqual([]) // opening a connection is no exchange
    await c.request({ method: 'POST', url: `${tls13.url}/register`, body: 'x' })
    expect(tls13.connections - before).toBe(1)
    const [x] = log.list()
    expect(x!.reusedConnection).toBe(false)
    expect(x!.tls).toMatchObject({ protocol: 'TLSv1.3', clientCertificateRequested: true })
    expect(x!.presentedCertificate?.sent).toBe(true)
    // The handshake ended before the request began: it waited for none of it.
    expect(x!.timings).toMatchObject({ connect: 0, tls: 0 })
    expect(x!.timings.preconnected).toBeGreaterThan(0)
    // Nor is one opened where the certificate must not go (tls12 is not of this environment), or once closed.
    const others = tls12.connections
    c.preconnect(`${tls12.url}/x`)
    await c.close()
    c.preconnect(`${tls13.url}/y`)
    await new Promise((r) => setTimeout(r, 50))
    expect(tls12.connections).toBe(others)
    expect(tls13.connections - before).toBe(1)
  })

  it('keeps one connection for back-to-back requests (connections: 1, keep-alive)', async () => {
    const before = tls13.connections
    const c = client(tls13, 'good')
    await Promise.all([1, 2, 3, 4, 5].map((i) => c.request({ method: 'GET', url: `${tls13.url}/n/${i}` })))
    expect(tls13.connections - before).toBe(1)
  })

  for (const [name, server] of [
    ['TLS 1.3', () => tls13],
    ['TLS 1.2', () => tls12],
  ] as const) {
    it(`${name}: a certificate from another CA is refused as TLS_CLIENT_CERT_REFUSED`, async () => {
      const log = new ExchangeLog()
      const err = await failure(
        client(server(), 'foreign', log).request({ method: 'GET', url: `${server().url}/accounts` }),
      )
      expect(err.code).toBe('TLS_CLIENT_CERT_REFUSED')
      expect(err.cause).toMatch(/refused the client certificate/)
      expect(err.fix).toMatch(/starter kit/)
      expect(err.details?.exchangeId).toBe(log.list()[0]!.id)
      expect(log.list()[0]!.error?.code).toBe('TLS_CLIENT_CERT_REFUSED')
    })

    it(`${name}: refused on a connection opened ahead, it is still TLS_CLIENT_CERT_REFUSED, in the request's exchange`, async () => {
      const log = new ExchangeLog()
      const c = client(server(), 'foreign', log)
      c.preconnect(`${server().url}/accounts`)
      await new Promise((r) => setTimeout(r, 50)) // the handshake, and the server's refusal, before the request
      const err = await failure(c.request({ method: 'GET', url: `${server().url}/accounts` }))
      expect(err.code).toBe('TLS_CLIENT_CERT_REFUSED')
      expect(log.list()).toHaveLength(1)
      expect(log.list()[0]!.error?.code).toBe('TLS_CLIENT_CERT_REFUSED')
    })

    it(`${name}: no client certificate is refused as TLS_CLIENT_CERT_REFUSED saying none was presented`, async () => {
      const err = await failure(client(server(), 'none').request({ method: 'GET', url: `${server().url}/accounts` }))
      expect(err.code).toBe('TLS_CLIENT_CERT_REFUSED')
      expect(err.cause).toMatch(/no client certificate was presented/)
    })
  }
})
