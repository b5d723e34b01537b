import forge from 'node-forge'
import { beforeAll, describe, expect, it } from 'vitest'
import { importIdentity } from '../../../src-main/certificates/import-identity.ts'
import { isAppError } from '../../../src-main/core/app-error.ts'
import { testPki, type TestPki } from './pki-fixture.ts'

let pki: TestPki
beforeAll(async () => {
  pki = await testPki()
})

async function codeOf(fn: () => Promise<unknown>): Promise<string> {
  try {
    await fn()
  } catch (err) {
    if (isAppError(err)) return err.code
    throw err
  }
  throw new Error('expected an AppError')
}

describe('importIdentity', () => {
  it('picks the leaf the key belongs to, whatever the order of the bundle', async () => {
    const { leaf, chain } = await importIdentity({
      certPem: pki.issuing.certPem + pki.transport.certPem,
      keyPem: pki.transport.keyPem,
    })
    expect(leaf.subject).toBe(pki.transport.cert.subject)
    expect(chain.map((c) => c.subject)).toEqual([pki.issuing.cert.subject])
  })

  it('reads a combined PEM holding certificate and key', async () => {
    const { leaf } = await importIdentity({ certPem: pki.transport.keyPem + pki.transport.certPem })
    expect(leaf.subject).toBe(pki.transport.cert.subject)
  })

  it('reads PKCS#12', async () => {
    const p12 = forge.pkcs12.toPkcs12Asn1(
      forge.pki.privateKeyFromPem(pki.transport.keyPem),
      [forge.pki.certificateFromPem(pki.transport.certPem)],
      'pw',
      { algorithm: 'aes256' },
    )
    const { leaf } = await importIdentity({
      pkcs12: Buffer.from(forge.asn1.toDer(p12).getBytes(), 'binary'),
      passphrase: 'pw',
    })
    expect(leaf.subject).toBe(pki.transport.cert.subject)
    const noKey = forge.pkcs12.toPkcs12Asn1(null, [forge.pki.certificateFromPem(pki.transport.certPem)], 'pw', {
      algorithm: 'aes256',
    })
    expect(
      await codeOf(() =>
        importIdentity({ pkcs12: Buffer.from(forge.asn1.toDer(noKey).getBytes(), 'binary'), passphrase: 'pw' }),
      ),
    ).toBe('KEY_INVALID')
  })

  it('refuses a key of another certificate, and missing parts', async () => {
    expect(await codeOf(() => importIdentity({ certPem: pki.transport.certPem, keyPem: pki.issuing.keyPem }))).toBe(
      'KEY_MISMATCH',
    )
    expect(await codeOf(() => importIdentity({ certPem: pki.transport.certPem }))).toBe('INVALID_INPUT')
    expect(await codeOf(() => importIdentity({ keyPem: pki.transport.keyPem }))).toBe('INVALID_INPUT')
  })
})
