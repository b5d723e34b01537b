import { describe, expect, it } from 'vitest'
import { isAppError } from '../../../src-main/core/app-error.ts'
import { decodeJwt } from '../../../src-main/signing/jwt-decode.ts'
import { b64json } from './keys-fixture.ts'

describe('decodeJwt', () => {
  it('decodes header and claims and shows the times as dates', () => {
    const token = `${b64json({ alg: 'PS256', kid: 'k' })}.${b64json({ iss: 'x', iat: 1767225600, exp: 1767229200, auth_time: 1767225500 })}.c2ln`
    const dto = decodeJwt(token, 'fragment id_token')
    expect(dto.location).toBe('fragment id_token')
    expect(dto.claims).toMatchObject({ iss: 'x' })
    expect(dto.times).toEqual({
      iat: '2026-01-01T00:00:00.000Z',
      exp: '2026-01-01T01:00:00.000Z',
      auth_time: '2025-12-31T23:58:20.000Z',
    })
    expect(dto.signature).toBe('present')
  })

  it('tells unsigned and detached tokens apart, and shows the OB iat of a detached JWS', () => {
    expect(decodeJwt(`${b64json({ alg: 'none' })}.${b64json({ a: 1 })}.`).signature).toBe('none')
    const detached = decodeJwt(
      `${b64json({ alg: 'PS256', 'http://openbanking.org.uk/iat': 1767225600 })}..c2ln`,
      'header x-jws-signature',
    )
    expect(detached.signature).toBe('detached')
    expect(detached.claims).toBeUndefined()
    expect(detached.times['http://openbanking.org.uk/iat']).toBe('2026-01-01T00:00:00.000Z')
  })

  it('throws JWT_MALFORMED naming the broken part', () => {
    try {
      decodeJwt('Bearer abc')
      expect.unreachable()
    } catch (err) {
      expect(isAppError(err) && err.code).toBe('JWT_MALFORMED')
      expect(isAppError(err) && err.cause).toMatch(/three parts/)
    }
  })
})
