import { generateKeyPairSync } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { createSelfSignedCertificate } from '../../../src-main/certificates/generate.ts'
import {
  assertCurrentlyValid,
  certificateThumbprints,
  describeKey,
  inspectCertificate,
} from '../../../src-main/certificates/inspect.ts'
import { ORG_ID, SOFTWARE_ID, testPki, type TestPki } from './pki-fixture.ts'

let pki: TestPki
beforeAll(async () => {
  pki = await testPki()
})

describe('inspectCertificate', () => {
  it('shows an Open Banking transport certificate: names, ids, usages, key, thumbprints', () => {
    const dto = inspectCertificate(pki.transport.cert, new Date())
    expect(dto.subjectDn).toBe(`CN=${SOFTWARE_ID},OU=${ORG_ID},O=Example TPP Ltd,C=GB`)
    expect(dto.tlsClientAuthSubjectDn).toBe(dto.subjectDn)
    expect(dto.issuerDn).toBe('CN=Test Issuing CA,O=Test Ecosystem,C=GB')
    expect(dto.orgId).toBe(ORG_ID)
    expect(dto.softwareId).toBe(SOFTWARE_ID)
    expect(dto.publicKey).toEqual({ type: 'RSA', size: 2048 })
    expect(dto.extendedKeyUsages).toEqual(['clientAuth'])
    expect(dto.keyUsages).toEqual(['digitalSignature', 'keyEncipherment'])
    expect(dto.isCa).toBe(false)
    expect(dto.selfSigned).toBe(false)
    expect(dto.signatureAlgorithm).toBe('RSASSA-PKCS1-v1_5 with SHA-256')
    expect(dto.sha256Hex).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/)
    expect(Buffer.from(dto.x5tS256, 'base64url').toString('hex').toUpperCase()).toBe(dto.sha256Hex.replace(/:/g, ''))
    expect(dto.serialNumber).toMatch(/^[0-9a-f]+$/)
    expect(dto.expired).toBe(false)
    expect(dto.expiryWarning).toBeUndefined()
    expect(dto.daysToExpiry).toBeGreaterThanOrEqual(363)
  })

  it('warns under 30 days and when expired, and flags not-yet-valid', async () => {
    const now = new Date('2026-06-01T00:00:00Z')
    const soon = await createSelfSignedCertificate({
      subject: 'CN=soon',
      notBefore: new Date('2026-01-01T00:00:00Z'),
      notAfter: new Date('2026-06-13T00:00:00Z'),
      keyType: 'EC-P256',
    })
    const s = inspectCertificate(soon.cert, now)
    expect(s.daysToExpiry).toBe(12)
    expect(s.expiryWarning).toMatch(/expires in 12 days/)
    expect(s.selfSigned).toBe(true)
    expect(s.publicKey).toEqual({ type: 'EC', curve: 'P-256', size: 256 })
    const e = inspectCertificate(soon.cert, new Date('2026-07-01T00:00:00Z'))
    expect(e.expired).toBe(true)
    expect(e.daysToExpiry).toBeLessThan(0)
    expect(e.expiryWarning).toMatch(/^expired on 2026-06-13/)
    expect(inspectCertificate(soon.cert, new Date('2025-01-01T00:00:00Z')).notYetValid).toBe(true)
  })

  it('lists subject alternative names', async () => {
    const c = await createSelfSignedCertificate({
      subject: 'CN=server',
      subjectAltNames: [
        { type: 'dns', value: 'localhost' },
        { type: 'ip', value: '127.0.0.1' },
      ],
      keyType: 'EC-P256',
    })
    expect(inspectCertificate(c.cert).subjectAltNames).toEqual([
      { type: 'dns', value: 'localhost' },
      { type: 'ip', value: '127.0.0.1' },
    ])
  })
})

describe('thumbprints and keys', () => {
  it('computes SHA-256 thumbprints in both notations', () => {
    const t = certificateThumbprints(Buffer.from('abc'))
    expect(t.sha256Hex).toBe(
      'BA:78:16:BF:8F:01:CF:EA:41:41:40:DE:5D:AE:22:23:B0:03:61:A3:96:17:7A:9C:B4:10:FF:61:F2:00:15:AD',
    )
    expect(t.x5tS256).toBe('ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0')
  })
  it('describes key types', () => {
    expect(describeKey(generateKeyPairSync('ec', { namedCurve: 'P-384' }).publicKey)).toEqual({
      type: 'EC',
      curve: 'P-384',
      size: 384,
    })
    expect(describeKey(generateKeyPairSync('ed25519').publicKey)).toEqual({ type: 'Ed25519' })
  })
})

describe('assertCurrentlyValid', () => {
  it('throws CERTIFICATE_EXPIRED for an expired or not-yet-valid certificate', async () => {
    const c = await createSelfSignedCertificate({
      subject: 'CN=t',
      notBefore: new Date('2026-01-01T00:00:00Z'),
      validDays: 10,
      keyType: 'EC-P256',
    })
    expect(assertCurrentlyValid(c.cert, new Date('2026-01-05T00:00:00Z')).daysToExpiry).toBe(6)
    expect(() => assertCurrentlyValid(c.cert, new Date('2026-02-01T00:00:00Z'), 'the transport certificate')).toThrow(
      /the transport certificate \(CN=t\) failed: it expired on 2026-01-11/,
    )
    expect(() => assertCurrentlyValid(c.cert, new Date('2025-12-01T00:00:00Z'))).toThrow(/not valid before/)
  })
})
