import { describe, expect, it } from 'vitest'
import { isAppError } from '../../../src-main/core/app-error.ts'
import { findJwk, jwksKids, jwksResolver } from '../../../src-main/signing/jwks.ts'
import { jwksOf, rsaSigner } from './keys-fixture.ts'

describe('jwks', () => {
  it('finds keys by kid and lists kids', () => {
    const jwks = jwksOf(rsaSigner('a'), rsaSigner('b'))
    expect(findJwk(jwks, 'b')?.kid).toBe('b')
    expect(findJwk(jwks, 'c')).toBeUndefined()
    expect(findJwk(jwks, undefined)).toBeUndefined()
    expect(jwksKids(jwks)).toBe('a, b')
    expect(jwksKids({ keys: [] })).toBe('(no key has a kid)')
  })

  it('refuses what is not a JWKS', () => {
    try {
      jwksResolver({} as never)
      expect.unreachable()
    } catch (err) {
      expect(isAppError(err) && err.code).toBe('INVALID_INPUT')
    }
    expect(typeof jwksResolver(jwksOf(rsaSigner()))).toBe('function')
  })
})
