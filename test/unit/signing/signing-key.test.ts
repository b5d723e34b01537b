import { generateKeyPairSync } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { isAppError } from '../../../src-main/core/app-error.ts'
import { ps256SigningKey, publicSigningJwk } from '../../../src-main/signing/signing-key.ts'

function codeOf(fn: () => unknown): string {
  try {
    fn()
  } catch (err) {
    if (isAppError(err)) return err.code
    throw err
  }
  throw new Error('expected an AppError')
}

describe('ps256SigningKey', () => {
  it('accepts RSA private keys of 2048 bits or more and publishes a public JWK with kid, use and alg', () => {
    const signer = ps256SigningKey(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey, 'k1')
    const jwk = publicSigningJwk(signer)
    expect(jwk).toMatchObject({ kty: 'RSA', kid: 'k1', use: 'sig', alg: 'PS256', e: 'AQAB' })
    expect(jwk).not.toHaveProperty('d')
  })

  it('refuses EC keys, public keys, small keys and an empty kid', () => {
    expect(codeOf(() => ps256SigningKey(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey, 'k'))).toBe(
      'KEY_UNSUPPORTED',
    )
    expect(codeOf(() => ps256SigningKey(generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey, 'k'))).toBe(
      'KEY_UNSUPPORTED',
    )
    expect(codeOf(() => ps256SigningKey(generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey, 'k'))).toBe(
      'KEY_UNSUPPORTED',
    )
    expect(codeOf(() => ps256SigningKey(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey, ' '))).toBe(
      'INVALID_INPUT',
    )
  })
})
