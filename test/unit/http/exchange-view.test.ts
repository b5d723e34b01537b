import { describe, expect, it } from 'vitest'
import { bodyView, contentTypeOf, isSecretJwt, redactError } from '../../../src-main/http/exchange-view.ts'

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

  it('reads the content type, a secret JWT by where it sat, an error with its URL masked', () => {
    expect(contentTypeOf([['Content-Type', 'application/json']])).toBe('application/json')
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
