import { generateKeyPairSync } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { parseCertificates, parsePrivateKey } from '../../../src-main/certificates/import-pem.ts'
import { isAppError } from '../../../src-main/core/app-error.ts'
import { testPki, type TestPki } from './pki-fixture.ts'

let pki: TestPki
beforeAll(async () => {
  pki = await testPki()
})

function codeOf(fn: () => unknown): string {
  try {
    fn()
  } catch (err) {
    if (isAppError(err)) return err.code
    throw err
  }
  throw new Error('expected an AppError')
}

describe('parseCertificates', () => {
  it('reads every certificate of a bundle in order, and DER', () => {
    const certs = parseCertificates(pki.transport.certPem + pki.issuing.certPem + pki.root.certPem)
    expect(certs.map((c) => c.subject)).toEqual([
      pki.transport.cert.subject,
      pki.issuing.cert.subject,
      pki.root.cert.subject,
    ])
    expect(parseCertificates(new Uint8Array(pki.root.cert.rawData))[0]!.subject).toBe(pki.root.cert.subject)
    expect(parseCertificates(Buffer.from(pki.root.certPem))).toHaveLength(1)
  })

  it('says what the input holds when it is not a certificate', () => {
    expect(codeOf(() => parseCertificates(pki.transport.keyPem))).toBe('CERTIFICATE_INVALID')
    try {
      parseCertificates(pki.transport.keyPem, 'transport.pem')
    } catch (err) {
      expect(isAppError(err) && err.what).toBe('Reading transport.pem failed')
      expect(isAppError(err) && err.cause).toBe('it holds a private key (PRIVATE KEY), not a certificate')
    }
    try {
      parseCertificates('-----BEGIN CERTIFICATE REQUEST-----\nAAAA\n-----END CERTIFICATE REQUEST-----')
    } catch (err) {
      expect(isAppError(err) && err.fix).toMatch(/CSR is what you send/)
    }
    expect(codeOf(() => parseCertificates(''))).toBe('CERTIFICATE_INVALID')
    expect(codeOf(() => parseCertificates('just text'))).toBe('CERTIFICATE_INVALID')
    expect(codeOf(() => parseCertificates('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----'))).toBe(
      'CERTIFICATE_INVALID',
    )
    expect(codeOf(() => parseCertificates(new Uint8Array([1, 2, 3])))).toBe('CERTIFICATE_INVALID')
  })
})

describe('parsePrivateKey', () => {
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey
  const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey

  it('reads PKCS#8, PKCS#1 RSA, SEC1 EC and DER keys', () => {
    expect(parsePrivateKey(rsa.export({ format: 'pem', type: 'pkcs8' }) as string).asymmetricKeyType).toBe('rsa')
    expect(parsePrivateKey(rsa.export({ format: 'pem', type: 'pkcs1' }) as string).asymmetricKeyType).toBe('rsa')
    expect(parsePrivateKey(ec.export({ format: 'pem', type: 'sec1' }) as string).asymmetricKeyType).toBe('ec')
    expect(parsePrivateKey(rsa.export({ format: 'der', type: 'pkcs8' })).asymmetricKeyType).toBe('rsa')
    expect(parsePrivateKey(ec.export({ format: 'der', type: 'sec1' })).asymmetricKeyType).toBe('ec')
  })

  it('reads encrypted PKCS#8 and legacy encrypted PKCS#1 with the passphrase, and tells a missing from a wrong one', () => {
    const enc8 = rsa.export({
      format: 'pem',
      type: 'pkcs8',
      cipher: 'aes-256-cbc',
      passphrase: 'correct horse',
    }) as string
    const enc1 = rsa.export({
      format: 'pem',
      type: 'pkcs1',
      cipher: 'aes-256-cbc',
      passphrase: 'correct horse',
    }) as string
    for (const enc of [enc8, enc1]) {
      expect(parsePrivateKey(enc, 'correct horse').asymmetricKeyType).toBe('rsa')
      expect(codeOf(() => parsePrivateKey(enc))).toBe('PASSPHRASE_REQUIRED')
      expect(codeOf(() => parsePrivateKey(enc, 'wrong'))).toBe('PASSPHRASE_WRONG')
    }
  })

  it('refuses key types and sizes Open Banking does not use', () => {
    const ed = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }) as string
    expect(codeOf(() => parsePrivateKey(ed))).toBe('KEY_UNSUPPORTED')
    const small = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({
      format: 'pem',
      type: 'pkcs8',
    }) as string
    try {
      parsePrivateKey(small)
      expect.unreachable()
    } catch (err) {
      expect(isAppError(err) && err.code).toBe('KEY_UNSUPPORTED')
      expect(isAppError(err) && err.cause).toMatch(/1024 bits/)
    }
  })

  it('says what the input holds when it is not a key', () => {
    expect(codeOf(() => parsePrivateKey(pki.root.certPem))).toBe('KEY_INVALID')
    expect(codeOf(() => parsePrivateKey(''))).toBe('KEY_INVALID')
    expect(codeOf(() => parsePrivateKey('-----BEGIN PRIVATE' + ' KEY-----\nAAAA\n-----END PRIVATE KEY-----'))).toBe(
      'KEY_INVALID',
    )
    expect(codeOf(() => parsePrivateKey(new Uint8Array([9, 9, 9])))).toBe('KEY_INVALID')
    const two =
      (rsa.export({ format: 'pem', type: 'pkcs8' }) as string) + (ec.export({ format: 'pem', type: 'pkcs8' }) as string)
    expect(codeOf(() => parsePrivateKey(two))).toBe('KEY_INVALID')
  })
})
