import { generateKeyPairSync } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { PRIVATE_KEY_REMOVED } from '../../../src-main/core/redact.ts'
import { FULLY_MASKED } from '../../../src-main/core/secret-mask.ts'
import { ExchangeLog, type ExchangeHead } from '../../../src-main/http/exchange-log.ts'
import { assertion, tokenExchange } from './exchange-fixture.ts'

describe('ExchangeLog', () => {
  it('masks secrets by default, lists them, and reveals one at a time when asked', () => {
    const log = new ExchangeLog()
    const id = log.record(tokenExchange())
    const view = log.get(id)
    const text = JSON.stringify(view)
    for (const secret of ['Y2xpZW50OnNlY3JldA==', 'opaque-access-token', 'c2lnbmF0dXJl'])
      expect(text).not.toContain(secret)
    expect(view.redacted).toBe(true)
    expect(view.request.headers).toContainEqual(['authorization', `Basic ${FULLY_MASKED}`])
    expect(view.request.body!.text).toMatch(/client_assertion=eyJhbGci…[^&]{8}$/)
    expect(view.response!.body!.text).toContain(`"access_token":"${FULLY_MASKED}"`)
    // The assertion's claims stay visible (they are what one debugs), the compact form does not.
    expect(view.jwts).toHaveLength(1)
    expect(view.jwts[0]).toMatchObject({ location: 'request body client_assertion', claims: { iss: 'client-1' } })
    expect(view.jwts[0]!.compact).toBe(`${assertion.slice(0, 8)}…${assertion.slice(-8)}`)
    // One item per secret value, each with an opaque handle.
    expect(view.secrets!.map((s) => [s.where, s.name, s.kind, s.revealable])).toEqual([
      ['request headers', 'authorization', 'credential', true],
      ['request body', 'client_assertion', 'token', true],
      ['response body', 'access_token', 'token', true],
    ])
    for (const s of view.secrets!) expect(s.ref).not.toMatch(/opaque|Y2xp/)
    // Reveal the access token: its value goes to the caller, and the log keeps no trace of it.
    const access = view.secrets!.find((s) => s.name === 'access_token')!
    expect(log.reveal(id, access.ref)).toMatchObject({
      value: 'opaque-access-token',
      item: { name: 'access_token', revealed: true, shown: 'opaque-access-token' },
    })
    expect(log.get(id)).toEqual(view)
    expect(JSON.stringify(log.list())).not.toContain('opaque-access-token')
    // One view asked with that ref shows it; the rest stays masked, and the next view is masked again.
    const once = log.get(id, { reveal: [access.ref] })
    expect(once.response!.body!.text).toContain('"access_token":"opaque-access-token"')
    expect(once.request.headers).toContainEqual(['authorization', `Basic ${FULLY_MASKED}`])
    expect(once.redacted).toBe(true)
    expect(once.secrets!.find((s) => s.name === 'access_token')).toMatchObject({
      revealed: true,
      shown: 'opaque-access-token',
    })
    expect(log.get(id).response!.body!.text).toContain(`"access_token":"${FULLY_MASKED}"`)
    expect(() => log.reveal(id, 'no-such-ref')).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }))
    expect(() => log.get(id, { reveal: ['no-such-ref'] })).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }))
    // Raw (main side only) is the exchange as recorded.
    const raw = log.get(id, { raw: true })
    expect(raw.redacted).toBe(false)
    expect(raw.secrets).toBeUndefined()
    expect(raw.jwts[0]!.compact).toBe(assertion)
  })

  it('removes private keys from views and never reveals one', () => {
    const log = new ExchangeLog()
    const pem = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({
      format: 'pem',
      type: 'pkcs8',
    }) as string
    const id = log.record(
      tokenExchange({
        response: {
          status: 201,
          headers: [['content-type', 'application/json']],
          body: Buffer.from(JSON.stringify({ orgId: 'o', signingKeyPem: pem, note: `also here: ${pem}` })),
        },
      }),
    )
    const view = log.get(id)
    expect(JSON.stringify(view)).not.toMatch(/PRIVATE KEY|MIG/)
    expect(JSON.parse(view.response!.body!.text)).toMatchObject({
      signingKeyPem: PRIVATE_KEY_REMOVED,
      note: `also here: ${PRIVATE_KEY_REMOVED}\n`,
    })
    const key = view.secrets!.find((s) => s.kind === 'private-key')!
    expect(key).toMatchObject({ revealable: false, shown: PRIVATE_KEY_REMOVED })
    expect(() => log.reveal(id, key.ref)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }))
    expect(() => log.get(id, { reveal: [key.ref] })).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }))
    expect(JSON.stringify(log.get(id))).not.toMatch(/PRIVATE KEY/)
  })

  it('is a ring buffer with a cap, lists oldest first, clears, and says NOT_FOUND for a dropped exchange', () => {
    const log = new ExchangeLog({ capacity: 3 })
    const ids = [1, 2, 3, 4, 5].map((i) => log.record(tokenExchange({ label: `n${i}` })))
    expect(log.list().map((e) => e.label)).toEqual(['n3', 'n4', 'n5'])
    expect(() => log.get(ids[0]!)).toThrow(/keeps the last 3 exchanges/)
    expect(log.clear()).toBe(3)
    expect(log.list()).toEqual([])
  })

  it('tells listeners about new exchanges with the redacted view, until they unsubscribe', () => {
    const log = new ExchangeLog()
    const seen: string[] = []
    const off = log.onDidRecordExchange((e) => seen.push(e.request.body!.text))
    log.record(tokenExchange())
    off()
    log.record(tokenExchange())
    expect(seen).toHaveLength(1)
    expect(seen[0]).not.toContain('c2lnbmF0dXJl')
  })

  it('gives head listeners the list row of each exchange (redacted URL, status, sizes) without reading a body', () => {
    const log = new ExchangeLog()
    const heads: ExchangeHead[] = []
    const off = log.onDidRecordHead((h) => heads.push(h))
    const id = log.record(
      tokenExchange({ request: { method: 'GET', url: 'https://auth/cb?code=secret-code&state=s', headers: [] } }),
    )
    log.record(
      tokenExchange({ response: undefined, error: { code: 'TLS_HANDSHAKE_FAILED', what: 'w', cause: 'c', fix: 'f' } }),
    )
    off()
    log.record(tokenExchange())
    expect(heads).toHaveLength(2)
    expect(heads[0]).toEqual({
      id,
      startedAt: '2026-01-01T00:00:00.000Z',
      method: 'GET',
      url: `https://auth/cb?code=${FULLY_MASKED}&state=s`,
      label: 'token (client_credentials)',
      status: 200,
      totalMs: 10,
      responseSize: tokenExchange().response!.body!.length,
      requestHeaders: [],
      responseHeaders: tokenExchange().response!.headers,
    })
    expect(heads[1]).toMatchObject({ errorCode: 'TLS_HANDSHAKE_FAILED', responseSize: 0 })
    expect(heads[1]).not.toHaveProperty('status')
  })

  it('records later on request: the id at once, the record on the next turn or at the first read, in order with record()', async () => {
    const log = new ExchangeLog()
    const heads: string[] = []
    log.onDidRecordHead((h) => heads.push(`${h.id}:${h.url}`))
    let built = 0
    const later = (url: string) =>
      log.recordLater(() => {
        built++
        return tokenExchange({ request: { method: 'GET', url, headers: [] } })
      })
    const a = later('https://bank/a')
    const b = later('https://bank/b')
    expect(built).toBe(0)
    expect(heads).toEqual([])
    // The next turn of the event loop makes them, in order, and tells the listeners.
    await new Promise((resolve) => setImmediate(resolve))
    expect(built).toBe(2)
    expect(heads).toEqual([`${a}:https://bank/a`, `${b}:https://bank/b`])
    // A read makes what is queued at once: get, list, bodyStats.
    const c = later('https://bank/c')
    expect(log.get(c).request.url).toBe('https://bank/c')
    const d = later('https://bank/d')
    expect(log.list().map((x) => x.id)).toEqual([a, b, c, d])
    // record() keeps the order of what was queued before it.
    const e = later('https://bank/e')
    const f = log.record(tokenExchange())
    expect(log.list().map((x) => x.id)).toEqual([a, b, c, d, e, f])
    expect(built).toBe(5)
  })

  it('keeps the place of an exchange whose record could not be built, saying why, and throws nothing from the timer', async () => {
    const log = new ExchangeLog()
    const id = log.recordLater(() => {
      throw new Error('certificate summary unavailable')
    })
    await new Promise((resolve) => setImmediate(resolve))
    expect(log.get(id).error).toMatchObject({
      code: 'INTERNAL',
      what: 'This exchange could not be recorded.',
      cause: 'certificate summary unavailable',
    })
  })
})

/** A JSON page of about `bytes` bytes, different for each `n` (so packs hold different bodies). */
function page(n: number, bytes = 20_000): Buffer {
  const rows = Array.from({ length: Math.ceil(bytes / 60) }, (_, i) => ({
    id: `tx-${n}-${i}`,
    amount: ((n * 7919 + i * 104729) % 100000) / 100,
  }))
  return Buffer.from(JSON.stringify({ page: n, rows }))
}

const pageExchange = (n: number, body = page(n)) =>
  tokenExchange({
    label: `page ${n}`,
    request: {
      method: 'GET',
      url: `https://bank/accounts/a1/transactions?page=${n}`,
      headers: [['authorization', `Bearer ${assertion}`]],
    },
    response: { status: 200, headers: [['content-type', 'application/json']], body },
  })

describe('ExchangeLog body budgets', () => {
  it('keeps the newest bodies as received, compresses older ones off the event loop, and shows them byte for byte', async () => {
    const log = new ExchangeLog({ capacity: 100, rawBodyBudget: 100_000 })
    const bodies = Array.from({ length: 20 }, (_, n) => page(n))
    const ids = bodies.map((b, n) => log.record(pageExchange(n, b)))
    // Nothing is compressed inside record(): the batch starts on a later turn.
    expect(log.bodyStats()).toMatchObject({ rawBodies: 20, compressedBodies: 0, compressing: true })
    await log.idle()
    const stats = log.bodyStats()
    expect(stats.compressing).toBe(false)
    expect(stats.rawBytes).toBeLessThanOrEqual(100_000)
    expect(stats.compressedBodies).toBe(20 - stats.rawBodies)
    expect(stats.compressedBodies).toBeGreaterThan(10)
    expect(stats.compressedBytes).toBeGreaterThan(0)
    expect(stats.compressedBytes).toBeLessThan(
      bodies.slice(0, stats.compressedBodies).reduce((n, b) => n + b.length, 0) / 2,
    )
    for (const n of [0, 7, 19]) {
      const view = log.get(ids[n]!, { raw: true })
      expect(view.response!.body).toEqual({
        size: bodies[n]!.length,
        truncated: false,
        contentType: 'application/json',
        text: bodies[n]!.toString(),
        encoding: 'utf8',
      })
    }
    expect(log.list().map((e) => e.response!.body!.text)).toEqual(bodies.map((b) => b.toString()))
  })

  it('finds the JWTs of a compressed body when it is viewed', async () => {
    const log = new ExchangeLog({ rawBodyBudget: 0 })
    const body = Buffer.from(
      JSON.stringify({ access_token: 'opaque', id_token: assertion, nested: [{ software_statement: assertion }] }),
    )
    const id = log.record(
      tokenExchange({ response: { status: 200, headers: [['content-type', 'application/json']], body } }),
    )
    await log.idle()
    expect(log.bodyStats()).toMatchObject({ rawBodies: 0, compressedBodies: 2 })
    const view = log.get(id)
    expect(view.jwts.map((j) => j.location)).toEqual([
      'request body client_assertion',
      'response body id_token',
      'response body nested[0].software_statement',
    ])
    expect(view.response!.body!.text).toContain(`"access_token":"${FULLY_MASKED}"`)
    expect(log.get(id, { raw: true }).response!.body!.text).toBe(body.toString())
  })

  it('drops the oldest compressed bodies past the compressed budget and says so; the exchanges stay', async () => {
    const log = new ExchangeLog({ capacity: 100, rawBodyBudget: 50_000, compressedBodyBudget: 30_000 })
    const bodies = Array.from({ length: 30 }, (_, n) => page(n))
    const ids = bodies.map((b, n) => log.record(pageExchange(n, b)))
    await log.idle()
    const stats = log.bodyStats()
    expect(stats.compressedBytes).toBeLessThanOrEqual(30_000)
    expect(stats.droppedBodies).toBeGreaterThan(0)
    expect(stats.rawBodies + stats.compressedBodies + stats.droppedBodies).toBe(30)
    expect(log.list()).toHaveLength(30)
    const oldest = log.get(ids[0]!)
    expect(oldest.label).toBe('page 0')
    expect(oldest.response!.body).toMatchObject({
      size: bodies[0]!.length,
      text: '',
      truncated: false,
      contentType: 'application/json',
    })
    expect(oldest.response!.body!.dropped!.reason).toMatch(
      /^no longer kept: the exchange log keeps the newest 49 KiB of bodies as received and about 29 KiB more compressed.*re-run the step to see it$/,
    )
    // The JWTs outside the body are still found.
    expect(oldest.jwts.map((j) => j.location)).toEqual(['request header authorization'])
    expect(log.get(ids[29]!).response!.body!.dropped).toBeUndefined()
    expect(log.get(ids[29]!).response!.body!.text).toBe(bodies[29]!.toString())
  })

  it('hands the main side a response body as received, raw or inflated, unredacted; undefined once dropped, cut, cleared or unknown', async () => {
    const log = new ExchangeLog({ capacity: 100, rawBodyBudget: 50_000, compressedBodyBudget: 30_000, bodyCap: 40_000 })
    const bodies = Array.from({ length: 30 }, (_, n) => page(n))
    const ids = bodies.map((b, n) => log.recordLater(() => pageExchange(n, b)))
    // Recorded later: reading a body makes the records first.
    expect(log.responseBody(ids[29]!)!.equals(bodies[29]!)).toBe(true)
    await log.idle()
    const stats = log.bodyStats()
    expect(stats.droppedBodies).toBeGreaterThan(0)
    const kept = ids.map((id) => log.responseBody(id))
    expect(kept.filter((b) => b === undefined)).toHaveLength(
      ids.filter((id) => log.get(id).response!.body!.dropped).length,
    )
    kept.forEach((b, n) => b && expect(b.equals(bodies[n]!)).toBe(true))
    const secret = Buffer.from(JSON.stringify({ access_token: 'opaque-secret' }))
    const token = log.record(
      tokenExchange({ response: { status: 200, headers: [['content-type', 'application/json']], body: secret } }),
    )
    expect(log.responseBody(token)!.toString()).toContain('opaque-secret')
    const cut = log.record(pageExchange(99, Buffer.alloc(50_000, 120)))
    expect(log.responseBody(cut)).toBeUndefined()
    expect(log.responseBody('no-such-exchange')).toBeUndefined()
    log.clear()
    expect(log.responseBody(ids[29]!)).toBeUndefined()
  })

  it('with both budgets at 0, drops every body once compressed', async () => {
    const log = new ExchangeLog({ rawBodyBudget: 0, compressedBodyBudget: 0 })
    const id = log.record(tokenExchange())
    await log.idle()
    expect(log.bodyStats()).toMatchObject({ rawBodies: 0, compressedBodies: 0, compressedBytes: 0, droppedBodies: 2 })
    const view = log.get(id, { raw: true })
    expect(view.request.body).toMatchObject({
      text: '',
      dropped: { reason: expect.stringMatching(/newest 0 KiB of bodies as received and about 0 KiB more compressed/) },
    })
    expect(view.response!.body!.dropped).toBeDefined()
  })

  it('keeps every body of a P1 journey (about 36 exchanges, 1.5 MB) as received with the default budgets', async () => {
    const log = new ExchangeLog({ capacity: 10_000, bodyCap: 12 * 1024 * 1024 })
    for (let n = 0; n < 36; n++) log.record(pageExchange(n, page(n, 42_000)))
    expect(log.bodyStats()).toMatchObject({ rawBodies: 36, compressedBodies: 0, droppedBodies: 0, compressing: false })
    await log.idle()
    expect(log.bodyStats()).toMatchObject({ rawBodies: 36, compressedBodies: 0, droppedBodies: 0 })
  })

  it('counts nothing for exchanges pushed out or cleared, even while their bodies are being compressed', async () => {
    const log = new ExchangeLog({ capacity: 5, rawBodyBudget: 30_000 })
    for (let n = 0; n < 12; n++) log.record(pageExchange(n))
    // Pushed out before the batch ran: only the bodies of the five kept exchanges (GETs: responses only) count.
    await log.idle()
    const stats = log.bodyStats()
    expect(stats.rawBodies + stats.compressedBodies + stats.droppedBodies).toBe(5)
    expect(stats.compressedBodies).toBeGreaterThan(0)
    for (let n = 12; n < 30; n++) log.record(pageExchange(n))
    expect(log.clear()).toBe(5)
    await log.idle()
    expect(log.bodyStats()).toEqual({
      rawBytes: 0,
      rawBodies: 0,
      compressedBytes: 0,
      compressedBodies: 0,
      droppedBodies: 0,
      compressing: false,
    })
    const id = log.record(pageExchange(99))
    expect(log.get(id, { raw: true }).response!.body!.text).toBe(page(99).toString())
  })

  it('refuses budgets that are not byte counts, naming the option', () => {
    expect(() => new ExchangeLog({ rawBodyBudget: -1 })).toThrow(/rawBodyBudget is -1/)
    expect(() => new ExchangeLog({ compressedBodyBudget: Number.NaN })).toThrow(
      /compressedBodyBudget is NaN.*non-negative number/,
    )
    expect(() => new ExchangeLog({ capacity: 0 })).toThrow(/capacity is 0/)
  })
})
