import { beforeAll, describe, expect, it } from 'vitest'
import { assertChainValid, verifyChain } from '../../../src-main/certificates/chain.ts'
import { createSelfSignedCertificate, issueCertificate } from '../../../src-main/certificates/generate.ts'
import { testPki, type TestPki } from './pki-fixture.ts'

let pki: TestPki
beforeAll(async () => {
  pki = await testPki()
})

describe('verifyChain', () => {
  it('builds leaf -> issuing -> root and passes every check', () => {
    const result = verifyChain(pki.transport.cert, [pki.root.cert, pki.issuing.cert])
    expect(result.valid).toBe(true)
    expect(result.path).toHaveLength(3)
    expect(result.path[2]).toBe('CN=Test Root CA,O=Test Ecosystem,C=GB')
    expect(result.checks.every((c) => c.pass)).toBe(true)
    expect(result.reason).toBeUndefined()
  })

  it('says which CA is missing: the issuing CA, or the root', () => {
    const noIssuing = verifyChain(pki.transport.cert, [pki.root.cert])
    expect(noIssuing.valid).toBe(false)
    expect(noIssuing.reason).toMatch(
      /issuer of .* \(CN=Test Issuing CA,O=Test Ecosystem,C=GB\) is not among the given CA certificates: add the issuing CA/,
    )
    const noRoot = verifyChain(pki.transport.cert, [pki.issuing.cert])
    expect(noRoot.valid).toBe(false)
    expect(noRoot.reason).toMatch(/chain stops at Test Issuing CA: its issuer \(CN=Test Root CA.*add the root CA/)
    expect(verifyChain(pki.transport.cert, [pki.otherRoot.cert]).valid).toBe(false)
  })

  it('detects a CA with the same name but another key', async () => {
    const impostor = await createSelfSignedCertificate({
      subject: 'CN=Test Issuing CA, O=Test Ecosystem, C=GB',
      ca: { pathLength: 0 },
      keyType: 'EC-P256',
    })
    const result = verifyChain(pki.transport.cert, [impostor.cert, pki.root.cert])
    expect(result.valid).toBe(false)
    expect(result.reason).toMatch(/same name/)
  })

  it('fails on an expired link, naming it and the date', async () => {
    const expired = await issueCertificate(pki.issuing, {
      subject: 'CN=expired-leaf',
      notBefore: new Date('2020-01-01T00:00:00Z'),
      validDays: 30,
    })
    const result = verifyChain(expired.cert, [pki.root.cert, pki.issuing.cert])
    expect(result.valid).toBe(false)
    expect(result.reason).toMatch(/^expired-leaf: expired on 2020-01-31/)
  })

  it('refuses an issuer that is not a CA and enforces path length', async () => {
    const notCa = await issueCertificate(pki.issuing, { subject: 'CN=not-a-ca', keyType: 'EC-P256' })
    const child = await issueCertificate(notCa, { subject: 'CN=child', keyType: 'EC-P256' })
    const r1 = verifyChain(child.cert, [notCa.cert, pki.issuing.cert, pki.root.cert])
    expect(r1.valid).toBe(false)
    expect(r1.reason).toMatch(/not-a-ca is not a CA certificate/)
    // The issuing CA has pathLength 0: it may not issue another CA that issues certificates.
    const sub = await issueCertificate(pki.issuing, { subject: 'CN=sub-ca', ca: { pathLength: 0 }, keyType: 'EC-P256' })
    const leaf = await issueCertificate(sub, { subject: 'CN=deep-leaf', keyType: 'EC-P256' })
    const r2 = verifyChain(leaf.cert, [sub.cert, pki.issuing.cert, pki.root.cert])
    expect(r2.valid).toBe(false)
    expect(r2.reason).toMatch(/Test Issuing CA allows at most 0 intermediate/)
  })

  it('accepts a self-signed certificate only when it is among the given CAs', async () => {
    const self = await createSelfSignedCertificate({ subject: 'CN=self', keyType: 'EC-P256' })
    expect(verifyChain(self.cert, []).valid).toBe(false)
    expect(verifyChain(self.cert, []).reason).toMatch(/self-signed and is not one of the given CA certificates/)
    expect(verifyChain(self.cert, [self.cert]).valid).toBe(true)
  })
})

describe('assertChainValid', () => {
  it('throws CERTIFICATE_CHAIN_INVALID with the reason, and returns the result when valid', () => {
    expect(assertChainValid(pki.transport.cert, [pki.issuing.cert, pki.root.cert]).valid).toBe(true)
    expect(() => assertChainValid(pki.transport.cert, [pki.issuing.cert])).toThrow(/add the root CA/)
    try {
      assertChainValid(pki.transport.cert, [])
      expect.unreachable()
    } catch (err) {
      expect(err).toMatchObject({ code: 'CERTIFICATE_CHAIN_INVALID' })
    }
  })
})
