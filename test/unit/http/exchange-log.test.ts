import { describe, expect, it } from 'vitest'
import { ExchangeLog, type ExchangeHead } from '../../../src-main/http/exchange-log.ts'
import { assertion, tokenExchange } from './exchange-fixture.ts'

describe('ExchangeLog', () => {
  it('redacts secrets by default and reveals them only when asked', () => {
    const log = new ExchangeLog()
    const id = log.record(tokenExchange())
    const view = log.get(id)
    const text = JSON.stringify(view)
    for (const secret of ['Y2xpZW50OnNlY3JldA==', 'opaque-access-token', 'c2lnbmF0dXJl']) expect(text).not.toContain(secret)
    expect(view.redacted).toBe(true)
    expect(view.request.headers).toContainEqual(['authorization', 'Basic REDACTED'])
    expect(view.request.body!.text).toMatch(/client_assertion=eyJ[^&]+\.REDACTED$/)
    expect(view.response!.body!.text).toContain('"access_token":"REDACTED"')
    // The assertion's claims stay visible (they are what one debugs), its signature does not.
    expect(view.jwts).toHaveLength(1)
    expect(view.jwts[0]).toMatchObject({ location: 'request body client_assertion', claims: { iss: 'client-1' } })
    expect(view.jwts[0]!.compact.endsWith('.REDACTED')).toBe(true)
    const revealed = log.get(id, { reveal: true })
    expect(revealed.redacted).toBe(false)
    expect(JSON.stringify(revealed)).toContain('opaque-access-token')
    expect(revealed.jwts[0]!.compact).toBe(assertion)
  })

  it('keeps everything else: timings, TLS facts, certificate, label, environment', () => {
    const log = new ExchangeLog()
    const view = log.get(log.record(tokenExchange()))
    expect(view).toMatchObject({ label: 'token (client_credentials)', environmentId: 'env-1', identityId: 'transport-1', startedAt: '2026-01-01T00:00:00.000Z', reusedConnection: false })
    expect(view.timings).toEqual({ connect: 1.5, tls: 3.2, firstByte: 4, total: 10 })
    expect(view.tls?.protocol).toBe('TLSv1.3')
    expect(view.presentedCertificate?.sent).toBe(true)
    expect(view.response!.body).toMatchObject({ encoding: 'utf8', truncated: false, contentType: 'application/json' })
  })

  it('cuts bodies over the cap, keeping their size, and hides a secret cut in the middle', () => {
    const log = new ExchangeLog({ bodyCap: 40 })
    const body = Buffer.from(JSON.stringify({ token_type: 'Bearer', access_token: 'a'.repeat(100) }))
    const view = log.get(log.record(tokenExchange({ response: { status: 200, headers: [['content-type', 'application/json']], body } })))
    expect(view.response!.body).toMatchObject({ size: body.length, truncated: true })
    expect(view.response!.body!.text).toBe('{"token_type":"Bearer","access_token":"REDACTED')
    expect(log.get(view.id, { reveal: true }).response!.body!.text).toHaveLength(40)
  })

  it('shows binary bodies as base64', () => {
    const log = new ExchangeLog()
    const view = log.get(log.record(tokenExchange({ response: { status: 200, headers: [['content-type', 'application/pdf']], body: Buffer.from([0, 1, 2, 255]) } })))
    expect(view.response!.body).toMatchObject({ encoding: 'base64', text: 'AAEC/w==' })
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

  it('redacts codes in URLs, Location headers and error texts', () => {
    const log = new ExchangeLog()
    const view = log.get(log.record(tokenExchange({
      request: { method: 'GET', url: 'https://auth/cb?code=secret-code&state=s', headers: [] },
      response: { status: 302, headers: [['location', 'https://tpp/cb#code=secret-code&state=s']] },
      error: { code: 'HTTP_ERROR', what: 'GET https://auth/cb?code=secret-code&state=s answered 400', cause: 'c', fix: 'f' },
    })))
    expect(JSON.stringify(view)).not.toContain('secret-code')
    expect(view.request.url).toBe('https://auth/cb?code=REDACTED&state=s')
  })

  it('gives head listeners the list row of each exchange (redacted URL, status, sizes) without reading a body', () => {
    const log = new ExchangeLog()
    const heads: ExchangeHead[] = []
    const off = log.onDidRecordHead((h) => heads.push(h))
    const id = log.record(tokenExchange({ request: { method: 'GET', url: 'https://auth/cb?code=secret-code&state=s', headers: [] } }))
    log.record(tokenExchange({ response: undefined, error: { code: 'TLS_HANDSHAKE_FAILED', what: 'w', cause: 'c', fix: 'f' } }))
    off()
    log.record(tokenExchange())
    expect(heads).toHaveLength(2)
    expect(heads[0]).toEqual({ id, startedAt: '2026-01-01T00:00:00.000Z', method: 'GET', url: 'https://auth/cb?code=REDACTED&state=s', label: 'token (client_credentials)', status: 200, totalMs: 10, responseSize: tokenExchange().response!.body!.length })
    expect(heads[1]).toMatchObject({ errorCode: 'TLS_HANDSHAKE_FAILED', responseSize: 0 })
    expect(heads[1]).not.toHaveProperty('status')
  })

  it('finds the JWTs of a body cut at the cap in the whole body, as recorded', () => {
    const log = new ExchangeLog({ bodyCap: 40 })
    const idToken = `${assertion}`
    const body = Buffer.from(JSON.stringify({ padding: 'x'.repeat(60), id_token: idToken }))
    const view = log.get(log.record(tokenExchange({ response: { status: 200, headers: [['content-type', 'application/json']], body } })))
    expect(view.response!.body!.truncated).toBe(true)
    expect(view.jwts.map((j) => j.location)).toContain('response body id_token')
  })
})
