import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { ContentEncodingError, contentEncodingError, decodeBody } from '../../../src-main/http/content-encoding.ts'

const body = Buffer.from(JSON.stringify({ Data: { Balance: [{ Amount: { Amount: '1.00', Currency: 'GBP' } }] } }))
const coded = (value: string): Array<[string, string]> => [['Content-Encoding', value]]
const failure = (f: () => unknown): ContentEncodingError => {
  try {
    f()
  } catch (err) {
    if (err instanceof ContentEncodingError) return err
    throw err
  }
  throw new Error('no ContentEncodingError')
}

describe('decodeBody', () => {
  it('undoes gzip, deflate (zlib or raw) and br, and several codings last first', () => {
    expect(decodeBody(coded('gzip'), gzipSync(body), 1e6)).toEqual(body)
    expect(decodeBody(coded('x-gzip'), gzipSync(body), 1e6)).toEqual(body)
    expect(decodeBody(coded('deflate'), deflateSync(body), 1e6)).toEqual(body)
    expect(decodeBody(coded('deflate'), deflateRawSync(body), 1e6)).toEqual(body)
    expect(decodeBody(coded('br'), brotliCompressSync(body), 1e6)).toEqual(body)
    expect(decodeBody(coded('gzip, br'), brotliCompressSync(gzipSync(body)), 1e6)).toEqual(body)
  })

  it('leaves a body without a coding, or with identity, as it is', () => {
    expect(decodeBody([], body, 1e6)).toBe(body)
    expect(decodeBody(coded('identity'), body, 1e6)).toBe(body)
  })

  it('names bytes that are not the coding, a coding it does not decode, and a body over the cap once decoded', () => {
    const corrupt = failure(() => decodeBody(coded('gzip'), Buffer.from('\x1f\x8b\x08\x00garbage'), 1e6))
    expect(corrupt).toMatchObject({ kind: 'corrupt', coding: 'gzip' })
    expect(failure(() => decodeBody(coded('zstd'), body, 1e6))).toMatchObject({ kind: 'unsupported', coding: 'zstd' })
    const bomb = gzipSync(Buffer.alloc(2_000_000, 0x20))
    expect(failure(() => decodeBody(coded('gzip'), bomb, 1_000_000))).toMatchObject({ kind: 'too-large' })
  })
})

describe('contentEncodingError', () => {
  const raw = (bytes: Buffer) => ({
    status: 200,
    statusText: 'OK',
    headers: { 'x-fapi-interaction-id': 'i-1' },
    body: bytes,
  })
  const req = { method: 'GET', url: 'https://bank.example/open-banking/v4.0/aisp/accounts' }

  it('says which coding, what the bytes begin with, and that the request is not the cause', () => {
    const e = contentEncodingError(
      req,
      raw(Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x67])),
      new ContentEncodingError('corrupt', 'gzip', 'the bytes are not gzip data (zlib: incorrect header check)'),
    )
    expect(e.code).toBe('BANK_ANSWER_INVALID')
    expect(e.what).toMatch(/Content-Encoding: gzip.*labelled gzip but is not gzip data/)
    expect(e.cause).toMatch(/begins 1f 8b 08 00 67/)
    expect(e.fix).toMatch(/nothing in your request causes this.*x-fapi-interaction-id i-1/)
  })

  it('refuses an unknown coding by name, and a bomb as too large', () => {
    const unknown = contentEncodingError(
      req,
      raw(body),
      new ContentEncodingError('unsupported', 'zstd', 'not a coding the console decodes (gzip, deflate, br)'),
    )
    expect(unknown.what).toMatch(/"zstd" is not a coding the console decodes/)
    const big = contentEncodingError(
      req,
      raw(body),
      new ContentEncodingError('too-large', 'gzip', 'over 10 bytes once decoded'),
    )
    expect(big.code).toBe('RESPONSE_TOO_LARGE')
  })
})
