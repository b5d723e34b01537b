import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { issueCertificate } from '../../../src-main/certificates/generate.ts'
import type { EnvironmentDto } from '../../../src-main/contract/environments.ts'
import { systemClock } from '../../../src-main/core/clock.ts'
import type { AnswerToCheck } from '../../../src-main/conformance/check-answer.ts'
import { ConformanceLens } from '../../../src-main/conformance/conformance-lens.ts'
import { QuietTime } from '../../../src-main/http/quiet-time.ts'
import { createHttpEngine } from '../../../src-main/services/http-engine.ts'
import type { HttpEngine } from '../../../src-main/services/ports.ts'
import { testPki, type TestPki } from '../certificates/pki-fixture.ts'

let pki: TestPki
let server: Server
let engine: HttpEngine
let env: EnvironmentDto

beforeAll(async () => {
  pki = await testPki()
  const serverCert = await issueCertificate(pki.issuing, {
    subject: 'CN=localhost',
    subjectAltNames: [{ type: 'ip', value: '127.0.0.1' }],
    extendedKeyUsages: ['serverAuth'],
  })
  server = createServer(
    {
      key: serverCert.keyPem,
      cert: serverCert.certPem,
      ca: [pki.root.certPem, pki.issuing.certPem],
      requestCert: true,
      rejectUnauthorized: false,
    },
    (req, res) => {
      const status = req.url?.includes('missing') ? 404 : 200
      res
        .writeHead(status, { 'content-type': 'application/json' })
        .end(JSON.stringify({ path: req.url, big: 'x'.repeat(req.url?.includes('big') ? 50_000 : 1) }))
    },
  )
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`
  env = {
    id: 'e',
    name: 'test',
    kind: 'bank-sandbox',
    baseUrl: origin,
    authUrl: origin,
    apiPaths: { registration: '/r', ais: '/a', pis: '/p' },
    appScheme: 'x',
    tlsVerification: 'exact-ca',
    caBundlePem: pki.root.certPem + pki.issuing.certPem,
    allowedAuthMethods: ['private_key_jwt'],
    builtIn: false,
  }
  engine = createHttpEngine({ clock: systemClock(), capacity: 50 })
})
afterAll(async () => {
  await engine?.close()
  server?.close()
})

describe('the HTTP engine of the services', () => {
  it('sends over mutual TLS, parses JSON, and indexes every exchange by flow, status and path', async () => {
    const http = engine.forIdentity(
      env,
      { certPem: pki.transport.certPem, keyPem: pki.transport.keyPem },
      { tppId: 't', flowId: 'flow-1' },
    )
    const ok = await http.send({ method: 'GET', url: `${env.baseUrl}/a/accounts`, label: 'accounts' })
    expect(ok).toMatchObject({ status: 200, json: { path: '/a/accounts' } })
    // Parsed once, and read through the prototype: a getter of each response's own would give every response a
    // hidden class of its own, made in the old generation, that holds its body and JSON through young collections.
    expect(ok.json).toBe(ok.json)
    expect(Object.getOwnPropertyDescriptor(ok, 'json')).toBeUndefined()
    const again = await http.send({ method: 'GET', url: `${env.baseUrl}/a/accounts`, label: 'accounts' })
    expect(Object.getPrototypeOf(again)).toBe(Object.getPrototypeOf(ok))
    await http.send({ method: 'GET', url: `${env.baseUrl}/a/missing`, label: 'missing' })
    await engine
      .forIdentity(env, undefined, {})
      .send({ method: 'GET', url: `${env.baseUrl}/a/big`, label: 'big', clientCertificate: false })
    expect(engine.exchanges.list({}).total).toBe(4)
    expect(engine.exchanges.list({ flowId: 'flow-1' }).items.map((x) => x.path)).toEqual([
      '/a/accounts',
      '/a/accounts',
      '/a/missing',
    ])
    expect(engine.exchanges.list({ status: '4xx' }).items.map((x) => x.status)).toEqual([404])
    expect(engine.exchanges.list({ pathContains: 'BIG' }).items[0]!.responseSize).toBeGreaterThan(50_000)
    const full = engine.exchanges.get(ok.exchangeId)
    expect(full.presentedCertificate?.subjectDn).toContain('0015800001041RHAAY')
    expect(engine.exchanges.export(ok.exchangeId, 'curl')).toContain('curl')
    expect(JSON.parse(engine.exchanges.export(ok.exchangeId, 'har')).log.entries).toHaveLength(1)
  })

  it('drops its connections on request: the next request opens a new one, the exchange log stays', async () => {
    await engine.dropConnections() // those of the tests before
    let connections = 0
    const count = () => connections++
    server.on('secureConnection', count)
    try {
      const http = engine.forIdentity(env, undefined, {})
      const get = () => http.send({ method: 'GET', url: `${env.baseUrl}/a/keep`, label: 'k', clientCertificate: false })
      const before = engine.exchanges.list({}).total
      await get()
      await get()
      expect(connections).toBe(1)
      await engine.dropConnections()
      await get()
      expect(connections).toBe(2)
      expect(engine.exchanges.list({}).total).toBe(before + 3)
    } finally {
      server.off('secureConnection', count)
      await new Promise((resolve) => setImmediate(resolve)) // listeners hear of the last exchange now, not in the next test
    }
  })

  it('keeps at most its capacity, oldest first out, and notifies listeners of each summary', async () => {
    const seen: string[] = []
    const off = engine.exchanges.onRecord((s) => seen.push(s.path))
    const http = engine.forIdentity(env, undefined, {})
    for (let i = 0; i < 60; i++)
      await http.send({ method: 'GET', url: `${env.baseUrl}/a/n${i}`, label: 'n', clientCertificate: false })
    // Listeners hear of the last exchange on the next turn of the event loop, with nobody reading the log.
    expect(seen).toHaveLength(59)
    await new Promise((resolve) => setImmediate(resolve))
    expect(seen).toHaveLength(60)
    off()
    const page = engine.exchanges.list({ limit: 1000 })
    expect(page.total).toBe(50)
    expect(page.items.at(-1)!.path).toBe('/a/n59')
    engine.exchanges.clear()
    expect(engine.exchanges.list({}).total).toBe(0)
  })

  it("marks the console's own exchanges (failed ones too); hideByConsole leaves them out and counts them", async () => {
    engine.exchanges.clear()
    const own = engine.forIdentity(env, undefined, { byConsole: true })
    const flow = engine.forIdentity(env, undefined, { flowId: 'flow-2' })
    await own.send({ method: 'GET', url: `${env.baseUrl}/admin/conformance`, label: 'x', clientCertificate: false })
    await flow.send({ method: 'GET', url: `${env.baseUrl}/a/accounts`, label: 'x', clientCertificate: false })
    await own.send({ method: 'GET', url: `${env.baseUrl}/admin/missing`, label: 'x', clientCertificate: false })
    // Recorded at once (no answer): the mark reaches a row already in the list.
    await expect(
      own.send({
        method: 'GET',
        url: 'https://127.0.0.1:1/admin/clock',
        label: 'x',
        clientCertificate: false,
        retry: false,
      }),
    ).rejects.toMatchObject({ code: expect.any(String) })
    const all = engine.exchanges.list({})
    expect(all.total).toBe(4)
    expect(all.hiddenByConsole).toBeUndefined()
    expect(all.items.map((x) => [x.path, x.byConsole ?? false])).toEqual([
      ['/admin/conformance', true],
      ['/a/accounts', false],
      ['/admin/missing', true],
      ['/admin/clock', true],
    ])
    const shown = engine.exchanges.list({ hideByConsole: true })
    expect(shown.items.map((x) => x.path)).toEqual(['/a/accounts'])
    expect(shown).toMatchObject({ total: 1, hiddenByConsole: 3 })
    // The count follows the rest of the filter.
    expect(engine.exchanges.list({ hideByConsole: true, status: '4xx' })).toMatchObject({
      total: 0,
      hiddenByConsole: 1,
    })
    expect(engine.exchanges.list({ hideByConsole: true, flowId: 'flow-2' })).toMatchObject({
      total: 1,
      hiddenByConsole: 0,
    })
    expect(engine.exchanges.summary(all.items[1]!.id)).toMatchObject({ flowId: 'flow-2' })
    expect(engine.exchanges.summary(all.items[1]!.id)?.byConsole).toBeUndefined()
    expect(engine.exchanges.get(all.items[0]!.id).byConsole).toBe(true)
    expect(engine.exchanges.get(all.items[1]!.id).byConsole).toBeUndefined()
    engine.exchanges.clear()
  })

  it('has the lens check answers in the pauses of its requests, and at once when a verdict is awaited', async () => {
    let now = 0
    const checked: string[] = []
    class RecordingLens extends ConformanceLens {
      override async check(answer: AnswerToCheck) {
        checked.push(new URL(answer.url).pathname)
        return super.check(answer)
      }
    }
    // The quiet clock stands still unless the test moves it: the engine is quiet only when the test says.
    const own = createHttpEngine({
      clock: systemClock(),
      capacity: 50,
      lens: new RecordingLens(),
      quiet: new QuietTime({ now: () => now }),
    })
    try {
      const http = own.forIdentity(env, undefined, {})
      const get = (path: string) =>
        http.send({ method: 'GET', url: `${env.baseUrl}/a/${path}`, label: path, clientCertificate: false })
      for (const path of ['q1', 'q2', 'q3']) await get(path)
      await new Promise((resolve) => setTimeout(resolve, 60))
      expect(checked).toEqual([])
      expect(own.exchanges.list({}).total).toBe(3) // recorded, not yet checked
      now += 20 // 20 ms since the last request ended: quiet
      await vi.waitFor(() => expect(checked).toEqual(['/a/q1', '/a/q2', '/a/q3']))
      const q4 = await get('q4')
      expect(await own.exchanges.conformance(q4.exchangeId)).toMatchObject({ checked: expect.any(Boolean) })
      expect(checked).toEqual(['/a/q1', '/a/q2', '/a/q3', '/a/q4'])
      // A verdict looked at (the inspector opening the exchange) has its check run now too.
      const q5 = await get('q5')
      expect(own.exchanges.verdict(q5.exchangeId)).toMatchObject({
        checked: false,
        note: expect.stringMatching(/Being/),
      })
      await vi.waitFor(() => expect(checked).toContain('/a/q5'))
    } finally {
      await own.close()
    }
  })
})
