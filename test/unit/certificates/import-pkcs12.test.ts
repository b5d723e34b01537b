import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import forge from 'node-forge'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { importPkcs12 } from '../../../src-main/certificates/import-pkcs12.ts'
import { keyMatchesCertificate } from '../../../src-main/certificates/key-match.ts'
import { isAppError } from '../../../src-main/core/app-error.ts'
import { testPki, type TestPki } from './pki-fixture.ts'

let pki: TestPki
const tmp = mkdtempSync(join(tmpdir(), 'ob-p12-'))
beforeAll(async () => {
  pki = await testPki()
})
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

/** A PKCS#12 written by node-forge (legacy 3DES or AES-256 bags, SHA-1 MAC). */
function forgeP12(algorithm: '3des' | 'aes256', password: string, withKey = true): Uint8Array {
  const key = forge.pki.privateKeyFromPem(pki.transport.keyPem)
  const certs = [pki.transport.certPem, pki.issuing.certPem].map((p) => forge.pki.certificateFromPem(p))
  const asn1 = forge.pkcs12.toPkcs12Asn1(withKey ? key : null, certs, password, {
    algorithm,
    friendlyName: 'transport',
  })
  return Buffer.from(forge.asn1.toDer(asn1).getBytes(), 'binary')
}

function openssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

function codeOf(fn: () => unknown): string {
  try {
    fn()
  } catch (err) {
    if (isAppError(err)) return err.code
    throw err
  }
  throw new Error('expected an AppError')
}

describe('importPkcs12', () => {
  it('opens legacy 3DES and AES-256 files with the passphrase: certificates unchanged, key usable', () => {
    for (const alg of ['3des', 'aes256'] as const) {
      const contents = importPkcs12(forgeP12(alg, 'p12-pass'), 'p12-pass')
      expect(
        contents.certificates.map(
          (c) =>
            Buffer.from(c.rawData).equals(Buffer.from(pki.transport.cert.rawData)) ||
            Buffer.from(c.rawData).equals(Buffer.from(pki.issuing.cert.rawData)),
        ),
      ).toEqual([true, true])
      expect(contents.privateKey && keyMatchesCertificate(contents.privateKey, pki.transport.cert)).toBe(true)
      expect(contents.friendlyName).toBe('transport')
    }
  })

  it('tells a missing passphrase from a wrong one', () => {
    const der = forgeP12('aes256', 'p12-pass')
    expect(codeOf(() => importPkcs12(der, undefined))).toBe('PASSPHRASE_REQUIRED')
    expect(codeOf(() => importPkcs12(der, 'nope'))).toBe('PASSPHRASE_WRONG')
  })

  it('opens a file protected by the empty passphrase without one', () => {
    expect(importPkcs12(forgeP12('3des', ''), undefined).certificates).toHaveLength(2)
  })

  it('refuses what is not PKCS#12, naming PEM when PEM was given', () => {
    try {
      importPkcs12(Buffer.from(pki.root.certPem), 'x')
      expect.unreachable()
    } catch (err) {
      expect(isAppError(err) && err.code).toBe('CERTIFICATE_INVALID')
      expect(isAppError(err) && err.cause).toMatch(/PEM text/)
    }
    expect(codeOf(() => importPkcs12(new Uint8Array(pki.root.cert.rawData), 'x'))).toBe('CERTIFICATE_INVALID')
  })

  it.skipIf(!openssl())(
    'opens OpenSSL 3 files (PBES2 AES-256, PBKDF2-SHA256, SHA-256 MAC), also with an EC key',
    () => {
      for (const leaf of [pki.transport, pki.otherLeaf]) {
        const dir = mkdtempSync(join(tmp, 'o-'))
        writeFileSync(join(dir, 'cert.pem'), leaf.certPem)
        writeFileSync(join(dir, 'key.pem'), leaf.keyPem)
        execFileSync('openssl', [
          'pkcs12',
          '-export',
          '-in',
          join(dir, 'cert.pem'),
          '-inkey',
          join(dir, 'key.pem'),
          '-out',
          join(dir, 'c.p12'),
          '-passout',
          'pass:s3cret',
          '-keypbe',
          'AES-256-CBC',
          '-certpbe',
          'AES-256-CBC',
          '-macalg',
          'sha256',
        ])
        const contents = importPkcs12(readFileSync(join(dir, 'c.p12')), 's3cret')
        expect(contents.privateKey && keyMatchesCertificate(contents.privateKey, leaf.cert)).toBe(true)
        expect(codeOf(() => importPkcs12(readFileSync(join(dir, 'c.p12')), 'wrong'))).toBe('PASSPHRASE_WRONG')
      }
    },
  )
})
