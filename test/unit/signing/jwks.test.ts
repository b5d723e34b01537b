import { CompactSign, compactVerify } from 'jose'
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

  it('gives the same keys the same resolver, and changed keys a new one (a rotated key is never checked against the old set)', async () => {
    const a = rsaSigner('a')
    const b = rsaSigner('b')
    const jwks = jwksOf(a)
    const first = jwksResolver(jwks)
    expect(jwksResolver(JSON.parse(JSON.stringify(jwks)))).toBe(first)
    const rotated = jwksResolver(jwksOf(b))
    expect(rotated).not.toBe(first)
    const signedByB = await new CompactSign(new TextEncoder().encode('{}'))
      .setProtectedHeader({ alg: 'PS256', kid: 'b' })
      .sign(b.key)
    await expect(compactVerify(signedByB, first)).rejects.toThrow()
    await expect(compactVerify(signedByB, rotated)).resolves.toMatchObject({ protectedHeader: { kid: 'b' } })
    // A caller changing its object afterwards changes neither the resolver nor what it verifies.
    jwks.keys.length = 0
    expect(jwksResolver(jwksOf(a))).toBe(first)
  })
})
