import { generateKeyPairSync } from 'node:crypto'
import { calculateJwkThumbprint } from 'jose'
import { describe, expect, it } from 'vitest'
import { jwkThumbprint, keyInfo, publicJwk } from '../../../src-main/certificates/key-info.ts'

describe('key info', () => {
  it('exposes the public JWK only, never a private member', () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
    const info = keyInfo(privateKey, 'identity-1')
    expect(info.keyId).toBe('identity-1')
    expect(info.publicKey).toEqual({ type: 'RSA', size: 2048 })
    expect(Object.keys(info.publicJwk).sort()).toEqual(['e', 'kty', 'n'])
    expect(JSON.stringify(info)).not.toMatch(/"d"|"p"|"q"/)
  })

  it('computes RFC 7638 thumbprints equal to jose for RSA and EC', async () => {
    for (const key of [
      generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey,
      generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey,
    ]) {
      const jwk = publicJwk(key)
      expect(jwkThumbprint(jwk)).toBe(await calculateJwkThumbprint(jwk as Parameters<typeof calculateJwkThumbprint>[0]))
    }
    expect(() => jwkThumbprint({ kty: 'oct' })).toThrow(/no RFC 7638 thumbprint/)
  })
})
