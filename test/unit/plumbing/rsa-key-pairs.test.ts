import { webcrypto } from 'node:crypto'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { makeRsaKeyPairsAhead, rsaKeyPair, rsaKeyPairsAhead } from '../../../src-main/plumbing/rsa-key-pairs.ts'

const modulus = async (pair: webcrypto.CryptoKeyPair) => (await webcrypto.subtle.exportKey('jwk', pair.publicKey)).n

afterEach(() => vi.restoreAllMocks())

describe('RSA key pairs made ahead', () => {
  it('gives each pair made ahead once, in order, then makes new ones', async () => {
    makeRsaKeyPairsAhead('RSA-PSS', 2)
    expect(rsaKeyPairsAhead('RSA-PSS')).toBe(2)
    expect(rsaKeyPairsAhead('RSASSA-PKCS1-v1_5')).toBe(0)
    const first = await rsaKeyPair('RSA-PSS')
    expect(rsaKeyPairsAhead('RSA-PSS')).toBe(1)
    const second = await rsaKeyPair('RSA-PSS')
    expect(rsaKeyPairsAhead('RSA-PSS')).toBe(0)
    const third = await rsaKeyPair('RSA-PSS')
    const moduli = await Promise.all([first, second, third].map(modulus))
    expect(new Set(moduli).size).toBe(3)
    for (const pair of [first, second, third]) {
      expect(pair.privateKey.algorithm).toMatchObject({
        name: 'RSA-PSS',
        modulusLength: 2048,
        hash: { name: 'SHA-256' },
      })
      expect(pair.privateKey.extractable).toBe(true)
      expect(pair.privateKey.usages).toEqual(['sign'])
    }
  })

  it('keeps the two algorithms apart: a certificate key is never a PS256 signing key', async () => {
    makeRsaKeyPairsAhead('RSASSA-PKCS1-v1_5')
    const pss = await rsaKeyPair('RSA-PSS')
    expect(rsaKeyPairsAhead('RSASSA-PKCS1-v1_5')).toBe(1)
    const pkcs1 = await rsaKeyPair('RSASSA-PKCS1-v1_5')
    expect(rsaKeyPairsAhead('RSASSA-PKCS1-v1_5')).toBe(0)
    expect(pss.privateKey.algorithm.name).toBe('RSA-PSS')
    expect(pkcs1.privateKey.algorithm.name).toBe('RSASSA-PKCS1-v1_5')
  })

  it('replaces a pair that failed ahead with one made when taken', async () => {
    const generateKey = webcrypto.subtle.generateKey.bind(webcrypto.subtle)
    const spy = vi
      .spyOn(webcrypto.subtle, 'generateKey')
      .mockImplementationOnce(() => Promise.reject(new Error('no entropy')))
    makeRsaKeyPairsAhead('RSA-PSS')
    spy.mockImplementation(generateKey)
    const pair = await rsaKeyPair('RSA-PSS')
    expect(spy).toHaveBeenCalledTimes(2)
    expect(pair.privateKey.algorithm.name).toBe('RSA-PSS')
    expect(rsaKeyPairsAhead('RSA-PSS')).toBe(0)
  })
})
