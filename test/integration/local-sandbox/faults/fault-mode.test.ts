/**
 * Fault mode over the real sandbox servers and real mutual TLS: every fault kind, the admin endpoint on
 * the directory origin, and rules given at start-up. The client is undici directly (TestTpp), so the
 * console's own HTTP client plays no part.
 */
import 'reflect-metadata'
import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Agent, request } from 'undici'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startLocalSandbox } from '../../../../src-main/local-sandbox/index.ts'
import { startTestSandbox, type TestSandbox } from '../support/sandbox-fixture.ts'
import type { RegisteredTestClient, TestTpp } from '../support/test-tpp.ts'

const AIS = '/open-banking/v4.0/aisp'
const PSU = { 'x-fapi-customer-ip-address': '198.51.100.23' }

let env: TestSandbox
let tpp: TestTpp
let client: RegisteredTestClient
let token: string
let directory: Agent
let bootRules: Array<{ id: string; path: string }>

beforeAll(async () => {
  env = await startTestSandbox({
    faults: [{ id: 'boot', origin: 'directory', path: '/never-asked', fault: { kind: 'reset' } }],
  })
  bootRules = await env.sandbox.faults.list()
  tpp = await env.onboard({ roles: ['AISP'] })
  client = await tpp.register({ overrides: { sandbox_profile: 'strict-headless', scope: 'openid accounts' } })
  const cc = await tpp.clientCredentials(client, 'accounts')
  const consent = await tpp.call('POST', `${env.sandbox.baseUrl}${AIS}/account-access-consents`, {
    headers: { authorization: `Bearer ${cc}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      Data: {
        Permissions: [
          'ReadAccountsDetail',
          'ReadBalances',
          'ReadTransactionsDetail',
          'ReadTransactionsCredits',
          'ReadTransactionsDebits',
        ],
      },
      Risk: {},
    }),
  })
  expect(consent.status, consent.text).toBe(201)
  const auth = await tpp.authoriseHeadless(client, consent.json.Data.ConsentId, 'openid accounts')
  const exchanged = await tpp.exchangeCode(client, auth.code!)
  expect(exchanged.status, exchanged.text).toBe(200)
  token = exchanged.json.access_token
  directory = new Agent({ connect: { ca: env.sandbox.caBundlePem }, connections: 1 })
})
afterAll(async () => {
  await directory?.close()
  await env?.stop()
})
beforeEach(async () => {
  await env.sandbox.faults.clear()
})

function ais(path: string) {
  const url = path.startsWith('https://') ? path : `${env.sandbox.baseUrl}${AIS}${path}`
  return tpp.call('GET', url, { headers: { authorization: `Bearer ${token}`, ...PSU } })
}

/** The raw answer of a GET: status, headers, and the bytes that came before the body ended or failed. */
async function raw(
  path: string,
  limit = Infinity,
): Promise<{ status: number; headers: Record<string, unknown>; bytes: Buffer; error?: Error }> {
  const res = await request(`${env.sandbox.baseUrl}${AIS}${path}`, {
    headers: { authorization: `Bearer ${token}`, ...PSU },
    dispatcher: tpp.agent,
  })
  const chunks: Buffer[] = []
  let size = 0
  let error: Error | undefined
  try {
    for await (const chunk of res.body) {
      chunks.push(chunk as Buffer)
      size += (chunk as Buffer).length
      if (size >= limit) {
        res.body.destroy()
        break
      }
    }
  } catch (err) {
    error = err as Error
  }
  return { status: res.statusCode, headers: res.headers, bytes: Buffer.concat(chunks), error }
}

async function admin(method: 'GET' | 'PUT' | 'POST' | 'DELETE', path = '/admin/faults', body?: unknown) {
  const res = await request(`${env.sandbox.directoryUrl}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    dispatcher: directory,
  })
  return { status: res.statusCode, json: (await res.body.json()) as any } // eslint-disable-line @typescript-eslint/no-explicit-any
}

describe('fault mode: the kinds', () => {
  it('rules given to startLocalSandbox are in force from the start', () => {
    expect(bootRules).toEqual([
      {
        id: 'boot',
        origin: 'directory',
        path: '/never-asked',
        skip: 0,
        fault: { kind: 'reset' },
        seen: 0,
        hits: 0,
        exhausted: false,
      },
    ])
  })

  it('startLocalSandbox refuses a bad rule before taking a port', async () => {
    const dataDir = join(tmpdir(), `ob-faults-never-${process.pid}`)
    await expect(
      startLocalSandbox({ dataDir, port: 0, faults: [{ fault: { kind: 'latency' } } as never] }),
    ).rejects.toThrow(/rules\[0\]\.fault\.ms is missing/)
    expect(existsSync(dataDir)).toBe(false)
  })

  it('latency: waits, then the real answer', async () => {
    await env.sandbox.faults.set([{ origin: 'base', path: `${AIS}/accounts`, fault: { kind: 'latency', ms: 300 } }])
    const started = Date.now()
    const res = await ais('/accounts')
    expect(Date.now() - started).toBeGreaterThanOrEqual(290)
    expect(res.status).toBe(200)
    expect(res.json.Data.Account.length).toBeGreaterThan(0)
    expect((await env.sandbox.faults.list())[0]).toMatchObject({ seen: 1, hits: 1 })
  })

  it('status: the given answer instead of the real one (429 with an HTTP date, OB error body)', async () => {
    await env.sandbox.faults.set([
      {
        path: `${AIS}/accounts`,
        times: 1,
        fault: { kind: 'status', status: 429, headers: { 'Retry-After': 'Wed, 21 Oct 2026 07:28:00 GMT' } },
      },
      {
        path: `${AIS}/balances`,
        fault: {
          kind: 'status',
          status: 503,
          body: { Code: '503', Message: 'down', Errors: [{ ErrorCode: 'UK.OBIE.UnexpectedError', Message: 'm' }] },
        },
      },
      {
        path: `${AIS}/accounts/*/balances`,
        fault: { kind: 'status', status: 200, body: '{"Data":', contentType: 'text/plain' },
      },
    ])
    const limited = await ais('/accounts')
    expect(limited.status).toBe(429)
    expect(limited.headers['retry-after']).toBe('Wed, 21 Oct 2026 07:28:00 GMT')
    expect(limited.text).toBe('')
    expect((await ais('/accounts')).status).toBe(200)
    const down = await ais('/balances')
    expect(down.status).toBe(503)
    expect(down.headers['content-type']).toMatch(/^application\/json/)
    expect(down.json.Errors[0].ErrorCode).toBe('UK.OBIE.UnexpectedError')
    const odd = await ais('/accounts/acc-amelia-current/balances')
    expect([odd.status, odd.headers['content-type'], odd.text]).toEqual([200, 'text/plain', '{"Data":'])
  })

  it('html-error: a gateway HTML page', async () => {
    await env.sandbox.faults.set([{ path: `${AIS}/accounts`, fault: { kind: 'html-error', status: 504 } }])
    const res = await ais('/accounts')
    expect(res.status).toBe(504)
    expect(res.headers['content-type']).toBe('text/html')
    expect(res.text).toContain('<title>504 Gateway Time-out</title>')
  })

  it('reset: the connection closes without an answer; the next request is answered', async () => {
    await env.sandbox.faults.set([{ path: `${AIS}/accounts`, times: 1, fault: { kind: 'reset' } }])
    await expect(ais('/accounts')).rejects.toThrow(/other side closed|socket|ECONNRESET/i)
    expect((await ais('/accounts')).status).toBe(200)
  })

  it('lost-response: the handler commits (a TPP is onboarded), the answer never comes', async () => {
    const before = await request(`${env.sandbox.directoryUrl}/tpps`, { dispatcher: directory }).then(
      (r) => r.body.json() as Promise<{ tpps: unknown[] }>,
    )
    await env.sandbox.faults.set([
      { origin: 'directory', method: 'POST', path: '/tpps', fault: { kind: 'lost-response' } },
    ])
    await expect(env.onboard({ orgName: 'Lost Answer Ltd' })).rejects.toThrow(/other side closed|socket|ECONNRESET/i)
    await env.sandbox.faults.clear()
    const after = await request(`${env.sandbox.directoryUrl}/tpps`, { dispatcher: directory }).then(
      (r) => r.body.json() as Promise<{ tpps: Array<{ orgName?: string }> }>,
    )
    expect(after.tpps.length).toBe(before.tpps.length + 1)
    expect(JSON.stringify(after.tpps)).toContain('Lost Answer Ltd')
  })

  it('truncate: real status and Content-Length, the body cut after N bytes', async () => {
    const whole = await ais('/accounts')
    await env.sandbox.faults.set([{ path: `${AIS}/accounts`, fault: { kind: 'truncate', bytes: 40 } }])
    const cut = await raw('/accounts')
    expect(cut.status).toBe(200)
    expect(Number(cut.headers['content-length'])).toBe(Buffer.byteLength(whole.text))
    expect(cut.bytes.toString()).toBe(whole.text.slice(0, 40))
    expect(cut.error).toBeDefined()
  })

  it('oversize: a 200 JSON body of N bytes, streamed (with and without Content-Length)', async () => {
    await env.sandbox.faults.set([
      { path: `${AIS}/accounts/*/transactions`, times: 1, fault: { kind: 'oversize', bytes: 300_000 } },
    ])
    const whole = await raw('/accounts/acc-amelia-current/transactions')
    expect([
      whole.status,
      whole.headers['content-type'],
      whole.headers['content-length'],
      whole.bytes.length,
      whole.error,
    ]).toEqual([200, 'application/json', '300000', 300_000, undefined])
    expect(whole.bytes.subarray(0, 24).toString()).toBe('{"Data":{"Transaction":[')
    // 1 GiB, read until 2 MiB and dropped: the sandbox stops producing.
    await env.sandbox.faults.set([
      { path: `${AIS}/accounts/*/transactions`, times: 1, fault: { kind: 'oversize', chunked: true } },
    ])
    const huge = await raw('/accounts/acc-amelia-current/transactions', 2 * 1024 * 1024)
    expect(huge.headers['content-length']).toBeUndefined()
    expect(huge.headers['transfer-encoding']).toBe('chunked')
    expect(huge.bytes.length).toBeGreaterThanOrEqual(2 * 1024 * 1024)
    expect((await ais('/accounts')).status).toBe(200)
  })

  it('mutate: JSON pointers set and removed in the real answer', async () => {
    await env.sandbox.faults.set([
      {
        path: `${AIS}/accounts`,
        fault: { kind: 'mutate', set: { '/Data': null, '/Links/Next': 'https://evil.example/x' }, remove: ['/Meta'] },
      },
    ])
    const res = await ais('/accounts')
    expect(res.status).toBe(200)
    expect(res.json.Data).toBeNull()
    expect(res.json.Links.Next).toBe('https://evil.example/x')
    expect(res.json.Links.Self).toMatch(/\/accounts$/)
    expect(res.json).not.toHaveProperty('Meta')
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.text))
  })

  it('pagination: loop, off-host, http, missing-next, wrong-total on a real transactions page', async () => {
    const path = '/accounts/acc-amelia-current/transactions'
    const real = (await ais(path)).json
    expect(real.Links.Next).toMatch(/^https:\/\/127\.0\.0\.1/)
    const page = async (mode: string) => {
      await env.sandbox.faults.set([
        { path: `${AIS}/accounts/*/transactions`, fault: { kind: 'pagination', mode: mode as 'loop' } },
      ])
      return (await ais(path)).json
    }
    expect((await page('loop')).Links.Next).toBe(real.Links.Self)
    expect((await page('off-host')).Links.Next).toBe(
      `https://evil.example${new URL(real.Links.Next).pathname}${new URL(real.Links.Next).search}`,
    )
    expect((await page('http')).Links.Next).toBe(real.Links.Next.replace(/^https:/, 'http:'))
    expect((await page('missing-next')).Links).not.toHaveProperty('Next')
    expect((await page('wrong-total')).Meta.TotalPages).toBe(real.Meta.TotalPages + 3)
    expect((await page('loop')).Data.Transaction).toEqual(real.Data.Transaction)
  })

  it('tls-handshake: new connections to the origin fail the handshake while the rule lasts', async () => {
    await env.sandbox.faults.set([{ origin: 'directory', times: 1, fault: { kind: 'tls-handshake' } }])
    const fresh = new Agent({ connect: { ca: env.sandbox.caBundlePem }, connections: 1 })
    try {
      await expect(
        request(`${env.sandbox.directoryUrl}/jwks`, { dispatcher: fresh }).then((r) => r.body.text()),
      ).rejects.toThrow(/handshake|alert|socket|disconnected|closed/i)
      const again = await request(`${env.sandbox.directoryUrl}/jwks`, { dispatcher: fresh })
      expect(again.statusCode).toBe(200)
      await again.body.text()
    } finally {
      await fresh.close()
    }
    expect((await env.sandbox.faults.list())[0]).toMatchObject({ hits: 1, exhausted: true })
  })

  it('skip and times: the first N through, then M faulted', async () => {
    await env.sandbox.faults.set([
      { path: `${AIS}/accounts`, skip: 1, times: 1, fault: { kind: 'status', status: 500 } },
    ])
    expect([(await ais('/accounts')).status, (await ais('/accounts')).status, (await ais('/accounts')).status]).toEqual(
      [200, 500, 200],
    )
  })
})

describe('fault mode: the admin endpoint', () => {
  it('PUT replaces, POST adds, GET lists with counts, DELETE removes', async () => {
    const put = await admin('PUT', '/admin/faults', {
      rules: [
        { id: 'slow', origin: 'base', path: `${AIS}/accounts`, fault: { kind: 'latency', ms: 1 } },
        { fault: { kind: 'reset' }, path: '/nowhere' },
      ],
    })
    expect(put.status).toBe(200)
    expect(put.json.rules.map((r: { id: string }) => r.id)).toEqual(['slow', expect.stringMatching(/^f\d+$/)])
    const post = await admin('POST', '/admin/faults', {
      id: 'down',
      path: `${AIS}/balances`,
      fault: { kind: 'html-error' },
    })
    expect([post.status, post.json.rule.id, post.json.rule.origin]).toEqual([201, 'down', 'any'])
    expect((await ais('/accounts')).status).toBe(200)
    expect((await ais('/balances')).status).toBe(502)
    const listed = await admin('GET')
    expect(listed.json.rules.map((r: { id: string; hits: number }) => [r.id, r.hits])).toEqual([
      ['slow', 1],
      [put.json.rules[1].id, 0],
      ['down', 1],
    ])
    expect((await admin('DELETE', '/admin/faults/down')).json).toEqual({ removed: 1 })
    expect((await admin('DELETE', '/admin/faults/down')).status).toBe(404)
    expect((await admin('DELETE')).json).toEqual({ removed: 2 })
    expect((await admin('GET')).json.rules).toEqual([])
  })

  it('a bad rule is a 400 naming the field, and the set in force stays', async () => {
    await admin('PUT', '/admin/faults', { rules: [{ id: 'keep', path: '/nowhere', fault: { kind: 'reset' } }] })
    const bad = await admin('PUT', '/admin/faults', {
      rules: [{ fault: { kind: 'reset' } }, { fault: { kind: 'latency', ms: 'slow' } }],
    })
    expect(bad.status).toBe(400)
    expect(bad.json.field).toBe('rules[1].fault.ms')
    expect(bad.json.error_description).toMatch(
      /rules\[1\]\.fault\.ms is "slow": it must be a whole number of milliseconds/,
    )
    const badKind = await admin('POST', '/admin/faults', { fault: { kind: 'meltdown' } })
    expect([badKind.status, badKind.json.field]).toEqual([400, 'rule.fault.kind'])
    expect((await admin('GET')).json.rules.map((r: { id: string }) => r.id)).toEqual(['keep'])
  })

  it('the admin endpoint itself is never faulted', async () => {
    await admin('PUT', '/admin/faults', { rules: [{ origin: 'directory', fault: { kind: 'reset' } }] })
    expect((await admin('GET')).status).toBe(200)
    expect((await admin('DELETE')).json).toEqual({ removed: 1 })
  })
})
