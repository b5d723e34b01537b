import { describe, expect, it } from 'vitest'
import { certificateExtensions, certificateSerialNumber, x509 } from '../../../src-main/plumbing/x509.ts'

const keyPair = () => crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify'])

describe('x509 plumbing', () => {
  it('loads @peculiar/x509 with reflect-metadata and Node WebCrypto, so certificates can be created', async () => {
    const keys = await keyPair()
    const cert = await x509.X509CertificateGenerator.createSelfSigned({
      name: 'CN=x',
      keys,
      signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
    })
    expect(await cert.verify({ publicKey: cert.publicKey, signatureOnly: true })).toBe(true)
  })

  it('serial numbers: 16 random octets, positive (high bit clear, first octet never 0)', () => {
    const serials = Array.from({ length: 200 }, certificateSerialNumber)
    expect(new Set(serials).size).toBe(200)
    for (const s of serials) {
      expect(s).toMatch(/^[0-9a-f]{32}$/)
      const first = parseInt(s.slice(0, 2), 16)
      expect(first & 0x80).toBe(0)
      expect(first).toBeGreaterThan(0)
    }
  })

  it('a CA: critical basic constraints with its path length and keyCertSign | cRLSign; key identifiers of both keys', async () => {
    const [own, issuer] = await Promise.all([keyPair(), keyPair()])
    const ext = await certificateExtensions({ ca: { pathLength: 1 } }, own.publicKey, issuer.publicKey)
    const basic = ext.find((e) => e instanceof x509.BasicConstraintsExtension)!
    expect({ ca: basic.ca, pathLength: basic.pathLength, critical: basic.critical }).toEqual({
      ca: true,
      pathLength: 1,
      critical: true,
    })
    const usage = ext.find((e) => e instanceof x509.KeyUsagesExtension)!
    expect(usage.usages).toBe(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign)
    const ski = ext.find((e) => e instanceof x509.SubjectKeyIdentifierExtension)!
    const aki = ext.find((e) => e instanceof x509.AuthorityKeyIdentifierExtension)!
    expect(ski.keyId).toBe((await x509.SubjectKeyIdentifierExtension.create(own.publicKey)).keyId)
    expect(aki.keyId).toBe((await x509.SubjectKeyIdentifierExtension.create(issuer.publicKey)).keyId)
    expect(ext.some((e) => e instanceof x509.ExtendedKeyUsageExtension)).toBe(false)
  })

  it('an end-entity certificate: not a CA, digitalSignature | keyEncipherment, its EKUs and SANs (not critical)', async () => {
    const own = await keyPair()
    const ext = await certificateExtensions(
      {
        extendedKeyUsages: [x509.ExtendedKeyUsage.clientAuth],
        subjectAltNames: [{ type: 'dns', value: 'tpp.example' }],
      },
      own.publicKey,
      own.publicKey,
    )
    expect(ext.find((e) => e instanceof x509.BasicConstraintsExtension)!.ca).toBe(false)
    expect(ext.find((e) => e instanceof x509.KeyUsagesExtension)!.usages).toBe(
      x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment,
    )
    const eku = ext.find((e) => e instanceof x509.ExtendedKeyUsageExtension)!
    expect([eku.usages, eku.critical]).toEqual([[x509.ExtendedKeyUsage.clientAuth], false])
    const san = ext.find((e) => e instanceof x509.SubjectAlternativeNameExtension)!
    expect([san.names.toJSON(), san.critical]).toEqual([[{ type: 'dns', value: 'tpp.example' }], false])
  })
})
