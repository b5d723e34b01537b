import { generateKeyPairSync } from 'node:crypto'
import { calculateJwkThumbprint } from 'jose'
import { describe, expect, it } from 'vitest'
import { keyInfo, publicJwk } from '../../../src-main/certificates/key-info.ts'

describe('key info', () => {
  it('exposes the public JWK only, never a private member', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
    const info = await keyInfo(privateKey, 'identity-1')
    expect(info.keyId).toBe('identity-1')
    expect(info.publicKey).toEqual({ type: 'RSA', size: 2048 })
    expect(Object.keys(info.publicJwk).sort()).toEqual(['e', 'kty', 'n'])
    expect(JSON.stringify(info)).not.toMatch(/"d"|"p"|"q"/)
  })

  it('gives the RFC 7638 thumbprint of the public JWK for RSA and EC keys', async () => {
    for (const key of [
      generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey,
      generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey,
    ]) {
      const jwk = publicJwk(key)
      expect((await keyInfo(key, 'k')).jwkThumbprint).toBe(
        await calculateJwkThumbprint(jwk as Parameters<typeof calculateJwkThumbprint>[0]),
      )
    }
  })

  it('matches the thumbprint of RFC 7638 section 3.1', async () => {
    const { createPublicKey } = await import('node:crypto')
    const n =
      '0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw'
    const key = createPublicKey({ key: { kty: 'RSA', n, e: 'AQAB' }, format: 'jwk' })
    expect((await keyInfo(key, 'k')).jwkThumbprint).toBe('NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs')
  })
})
