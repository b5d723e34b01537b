import { X509Certificate as NodeX509, createPrivateKey } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import {
  createSelfSignedCertificate,
  generateKeyPair,
  issueCertificate,
} from '../../../src-main/certificates/generate.ts'

describe('certificate generation', () => {
  it('creates a root CA whose subject follows the RFC 4514 string given (last RDN first)', async () => {
    const root = await createSelfSignedCertificate({ subject: 'CN=Root, O=Org, C=GB', ca: { pathLength: 1 } })
    const node = new NodeX509(root.certPem)
    expect(node.subject).toBe('C=GB\nO=Org\nCN=Root')
    expect(node.ca).toBe(true)
    expect(node.verify(node.publicKey)).toBe(true)
    expect(createPrivateKey(root.keyPem).asymmetricKeyType).toBe('rsa')
  })

  it('issues certificates the issuer signed, with SANs, EKUs and the requested validity', async () => {
    const root = await createSelfSignedCertificate({ subject: 'CN=Root', ca: { pathLength: 0 }, keyType: 'EC-P256' })
    const notBefore = new Date('2020-01-01T00:00:00Z')
    const leaf = await issueCertificate(root, {
      subject: 'CN=server',
      subjectAltNames: [{ type: 'ip', value: '127.0.0.1' }],
      extendedKeyUsages: ['serverAuth'],
      notBefore,
      validDays: 10,
      keyType: 'EC-P256',
    })
    const node = new NodeX509(leaf.certPem)
    expect(node.checkIssued(new NodeX509(root.certPem))).toBe(true)
    expect(node.verify(new NodeX509(root.certPem).publicKey)).toBe(true)
    expect(node.subjectAltName).toBe('IP Address:127.0.0.1')
    expect(node.keyUsage).toContain('1.3.6.1.5.5.7.3.1')
    expect(new Date(node.validFrom).toISOString()).toBe('2020-01-01T00:00:00.000Z')
    expect(new Date(node.validTo).toISOString()).toBe('2020-01-11T00:00:00.000Z')
    expect(node.ca).toBe(false)
  })

  it('generates RSA and EC key pairs of the requested sizes', async () => {
    const rsa = await generateKeyPair('RSA-2048')
    expect((rsa.publicKey.algorithm as unknown as { modulusLength: number }).modulusLength).toBe(2048)
    const ec = await generateKeyPair('EC-P384')
    expect((ec.publicKey.algorithm as unknown as { namedCurve: string }).namedCurve).toBe('P-384')
  })
})
