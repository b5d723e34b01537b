import { deserialize, serialize } from 'node:v8'
import { describe, expect, it } from 'vitest'
import { FULLY_MASKED } from '../../../src-main/core/secret-mask.ts'
import { ExchangeLog } from '../../../src-main/http/exchange-log.ts'
import { bodyView, isSecretJwt, keptUtf8, redactError } from '../../../src-main/http/exchange-view.ts'
import { tokenExchange } from './exchange-fixture.ts'

const stored = (text: string, extra: { truncated?: boolean; contentType?: string } = {}) => ({
  size: Buffer.byteLength(text) + (extra.truncated ? 100 : 0),
  length: Buffer.byteLength(text),
  truncated: false,
  ...extra,
})
const view = (text: string, extra: { truncated?: boolean; contentType?: string } = {}, masked = true) =>
  bodyView(
    stored(text, extra),
    Buffer.from(text),
    () => text,
    masked ? {} : undefined,
    () => 'gone',
  )

describe('exchange-view', () => {
  it('masks a secret member, and the start of one the cut body ends inside', () => {
    const token = 'a'.repeat(40)
    expect(view(`{"access_token":"${token}"}`, { contentType: 'application/json' }).text).toBe(
      '{"access_token":"aaaaaaaa…aaaaaaaa"}',
    )
    const cut = view(`{"x":1,"access_token":"${token}`, { contentType: 'application/json', truncated: true })
    expect(cut.text).toBe('{"x":1,"access_token":"aaaaaaaa…aaaaaaaa')
    expect(cut.truncated).toBe(true)
    // Without a context: as received.
    expect(view(`{"access_token":"${token}"}`, { contentType: 'application/json' }, false).text).toContain(token)
  })

  it('a kept body viewed again: one with nothing to mask is shown as it is, one with a secret is masked every time', () => {
    const token = 'b'.repeat(40)
    const clean = stored('{"Data":{"Amount":"10.00"}}', { contentType: 'application/json' })
    const secret = stored(`{"refresh_token":"${token}"}`, { contentType: 'application/json' })
    const show = (body: ReturnType<typeof stored>, text: string) =>
      bodyView(
        body,
        Buffer.from(text),
        () => text,
        {},
        () => 'gone',
      ).text
    for (let i = 0; i < 3; i++) {
      expect(show(clean, '{"Data":{"Amount":"10.00"}}')).toBe('{"Data":{"Amount":"10.00"}}')
      expect(show(secret, `{"refresh_token":"${token}"}`)).toBe('{"refresh_token":"bbbbbbbb…bbbbbbbb"}')
    }
  })

  it('gives the kept bytes of a body shown as received, decoding them only when its text is read', () => {
    const text = '{"Data":{"Info":"café"}}'
    const bytes = Buffer.from(text)
    let decoded = 0
    const asViewed = (body: ReturnType<typeof stored>, kept: Buffer, masked: boolean) =>
      bodyView(
        body,
        kept,
        () => (decoded++, kept.toString('utf8')),
        masked ? {} : undefined,
        () => 'gone',
      )
    const clean = stored(text, { contentType: 'application/json' })
    asViewed(clean, bytes, true) // The first view scans it for secrets (a decode); it has none.
    decoded = 0
    const again = asViewed(clean, bytes, true)
    expect(keptUtf8(again, 'text')).toBe(bytes)
    expect(keptUtf8(again, 'size')).toBeUndefined()
    expect(decoded).toBe(0)
    expect(again.text).toBe(text)
    expect(JSON.parse(JSON.stringify(again))).toEqual({
      size: clean.size,
      truncated: false,
      contentType: 'application/json',
      text,
      encoding: 'utf8',
    })
    // The desktop shell's IPC clones it as V8 serialises it (structured clone), reading the text.
    expect(deserialize(serialize(again))).toEqual({ ...again })
    expect(structuredClone(again).text).toBe(text)
    // As received (the main side's raw view) too.
    expect(keptUtf8(asViewed(stored(text), bytes, false), 'text')).toBe(bytes)
    // Never a body whose text is not its bytes as kept: one masked, one cut, one whose bytes are not UTF-8.
    const token = 'd'.repeat(40)
    const secret = `{"access_token":"${token}"}`
    const masked = asViewed(stored(secret, { contentType: 'application/json' }), Buffer.from(secret), true)
    expect(keptUtf8(masked, 'text')).toBeUndefined()
    expect(masked.text).not.toContain(token)
    const cut = asViewed(
      stored('{"Data":{"a', { contentType: 'application/json', truncated: true }),
      Buffer.from('{"Data":{"a'),
      true,
    )
    expect(keptUtf8(cut, 'text')).toBeUndefined()
    const latin1 = Buffer.from('{"Info":"caf\xe9"}', 'latin1')
    const notUtf8 = asViewed(stored('x', { contentType: 'application/json' }), latin1, true)
    expect(keptUtf8(notUtf8, 'text')).toBeUndefined()
    expect(notUtf8.text).toBe('{"Info":"caf\ufffd"}')
  })

  it('shows binary as base64 and a body no longer kept as its reason', () => {
    const bin = bodyView(
      stored('', { contentType: 'application/octet-stream' }),
      Buffer.from([0, 1, 2]),
      () => '',
      {},
      () => 'gone',
    )
    expect(bin).toMatchObject({ encoding: 'base64', text: 'AAEC' })
    const dropped = bodyView(
      stored('abc'),
      undefined,
      () => '',
      {},
      () => 'no longer kept',
    )
    expect(dropped).toMatchObject({ text: '', dropped: { reason: 'no longer kept' } })
  })

  it('reads a secret JWT by where it sat, an error with its URL masked', () => {
    expect(isSecretJwt({ name: 'authorization' } as never)).toBe(true)
    expect(isSecretJwt({ name: 'id_token' } as never)).toBe(true)
    expect(isSecretJwt({ name: 'x-jws-signature' } as never)).toBe(false)
    const code = 'c'.repeat(40)
    const e = redactError(
      { code: 'HTTP_ERROR', what: `GET https://bank/cb?code=${code} failed`, cause: 'x', fix: 'y' },
      {},
    )
    expect(e.what).not.toContain(code)
  })
})

// The view of a whole exchange, through the log that keeps it.
describe('exchange views', () => {
  it('keeps everything else: timings, TLS facts, certificate, label, environment', () => {
    const log = new ExchangeLog()
    const view = log.get(log.record(tokenExchange()))
    expect(view).toMatchObject({
      label: 'token (client_credentials)',
      environmentId: 'env-1',
      identityId: 'transport-1',
      startedAt: '2026-01-01T00:00:00.000Z',
      reusedConnection: false,
    })
    expect(view.timings).toEqual({ connect: 1.5, tls: 3.2, firstByte: 4, total: 10 })
    expect(view.tls?.protocol).toBe('TLSv1.3')
    expect(view.presentedCertificate?.sent).toBe(true)
    expect(view.response!.body).toMatchObject({ encoding: 'utf8', truncated: false, contentType: 'application/json' })
  })

  it('cuts bodies over the cap, keeping their size, and hides a secret cut in the middle', () => {
    const log = new ExchangeLog({ bodyCap: 40 })
    const body = Buffer.from(JSON.stringify({ token_type: 'Bearer', access_token: 'a'.repeat(100) }))
    const view = log.get(
      log.record(tokenExchange({ response: { status: 200, headers: [['content-type', 'application/json']], body } })),
    )
    expect(view.response!.body).toMatchObject({ size: body.length, truncated: true })
    expect(view.response!.body!.text).toBe(`{"token_type":"Bearer","access_token":"${FULLY_MASKED}`)
    expect(log.get(view.id, { raw: true }).response!.body!.text).toHaveLength(40)
  })

  it('shows binary bodies as base64', () => {
    const log = new ExchangeLog()
    const view = log.get(
      log.record(
        tokenExchange({
          response: { status: 200, headers: [['content-type', 'application/pdf']], body: Buffer.from([0, 1, 2, 255]) },
        }),
      ),
    )
    expect(view.response!.body).toMatchObject({ encoding: 'base64', text: 'AAEC/w==' })
  })

  it('redacts codes in URLs, Location headers and error texts', () => {
    const log = new ExchangeLog()
    const view = log.get(
      log.record(
        tokenExchange({
          request: { method: 'GET', url: 'https://auth/cb?code=secret-code&state=s', headers: [] },
          response: { status: 302, headers: [['location', 'https://tpp/cb#code=secret-code&state=s']] },
          error: {
            code: 'HTTP_ERROR',
            what: 'GET https://auth/cb?code=secret-code&state=s answered 400',
            cause: 'c',
            fix: 'f',
          },
        }),
      ),
    )
    expect(JSON.stringify(view)).not.toContain('secret-code')
    expect(view.request.url).toBe(`https://auth/cb?code=${FULLY_MASKED}&state=s`)
  })
})
