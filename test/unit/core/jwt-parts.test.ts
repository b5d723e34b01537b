import { describe, expect, it } from 'vitest'
import { decodeJwtParts, jwtTimes, looksLikeJwt } from '../../../src-main/core/jwt-parts.ts'

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url')
const jwt = `${b64({ alg: 'PS256', kid: 'k1' })}.${b64({ iss: 'a', exp: 1 })}.c2lnbmF0dXJl`

describe('decodeJwtParts', () => {
  it('decodes header and claims without verifying', () => {
    const parts = decodeJwtParts(jwt)
    expect(parts.header).toEqual({ alg: 'PS256', kid: 'k1' })
    expect(parts.claims).toEqual({ iss: 'a', exp: 1 })
    expect(parts.detached).toBe(false)
    expect(parts.signatureSegment).toBe('c2lnbmF0dXJl')
  })

  it('recognises a detached JWS (x-jws-signature) and an unsigned JWT', () => {
    const detached = decodeJwtParts(`${b64({ alg: 'PS256' })}..c2ln`)
    expect(detached.detached).toBe(true)
    expect(detached.claims).toBeUndefined()
    const none = decodeJwtParts(`${b64({ alg: 'none' })}.${b64({ a: 1 })}.`)
    expect(none.signatureSegment).toBe('')
    expect(none.detached).toBe(false)
  })

  it('names what is broken', () => {
    expect(() => decodeJwtParts('abc')).toThrow(/three parts.*has 1/)
    expect(() => decodeJwtParts('a.b.c.d.e')).toThrow(/JWE/)
    expect(() => decodeJwtParts('!!!.b.c')).toThrow(/header is not base64url-encoded JSON/)
    expect(() => decodeJwtParts(`${b64([1])}.b.c`)).toThrow(/not a JSON object/)
  })
})

describe('looksLikeJwt', () => {
  it('accepts compact JWS with a JSON header carrying alg, nothing else', () => {
    expect(looksLikeJwt(jwt)).toBe(true)
    expect(looksLikeJwt('not.a.jwt')).toBe(false)
    expect(looksLikeJwt('2b8f1c0e-5c1a-4c7b-9f5e-1c2d3e4f5a6b')).toBe(false)
    expect(looksLikeJwt(`${b64({ typ: 'JWT' })}.${b64({})}.x`)).toBe(false)
  })
})

describe('jwtTimes', () => {
  it('shows NumericDate claims and the OB iat header as ISO dates, ignoring non-dates', () => {
    expect(
      jwtTimes(
        { 'http://openbanking.org.uk/iat': 1767225600 },
        { iat: 1767225600, exp: 'soon', nbf: -1, client_secret_expires_at: 0 },
      ),
    ).toEqual({
      iat: '2026-01-01T00:00:00.000Z',
      'http://openbanking.org.uk/iat': '2026-01-01T00:00:00.000Z',
    })
  })
})
