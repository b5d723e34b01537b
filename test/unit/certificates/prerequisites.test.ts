import { createPrivateKey } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { createSelfSignedCertificate, issueCertificate } from '../../../src-main/certificates/generate.ts'
import { SELF_SIGNED_TRANSPORT_HINT, checkTppPrerequisites } from '../../../src-main/certificates/prerequisites.ts'
import { ssaClaims, testPki, unsignedJwt, type TestPki } from './pki-fixture.ts'

let pki: TestPki
beforeAll(async () => {
  pki = await testPki()
})

const byName = (checks: Array<{ name: string; pass: boolean }>) =>
  Object.fromEntries(checks.map((c) => [c.name, c.pass]))

describe('checkTppPrerequisites', () => {
  it('passes every item of the spec for a complete onboarding kit', () => {
    const { checks, softwareStatement } = checkTppPrerequisites({
      transportCertificate: pki.transport.cert,
      transportKey: createPrivateKey(pki.transport.keyPem),
      softwareStatement: unsignedJwt(ssaClaims()),
      caCertificates: [pki.root.cert, pki.issuing.cert],
    })
    expect(checks.filter((c) => !c.pass)).toEqual([])
    expect(checks.map((c) => c.name)).toEqual([
      '1. Registered in the open banking directory',
      '2. Software statement present',
      '3. Transport certificate present',
      '3. Transport certificate belongs to the software statement',
      '3. Transport certificate matches its private key',
      '3. Transport certificate chains to the ecosystem CAs',
      '3. Transport certificate not expired',
      '4. At least one redirect URI',
      '5. Root and issuing CA certificates held',
    ])
    expect(softwareStatement?.roles).toEqual(['AISP', 'PISP'])
  })

  it('fails each item with a hint when nothing is provided', () => {
    const { checks } = checkTppPrerequisites({})
    expect(checks.every((c) => !c.pass)).toBe(true)
    expect(checks.every((c) => c.hint)).toBe(true)
    expect(checks.map((c) => c.name)).toEqual([
      '1. Registered in the open banking directory',
      '2. Software statement present',
      '3. Transport certificate present',
      '4. At least one redirect URI',
      '5. Root and issuing CA certificates held',
    ])
  })

  it('names the wrong key, the broken chain, the expired certificate and the missing root', async () => {
    const expired = await issueCertificate(pki.issuing, {
      subject: 'CN=HQuZPIt3ipkh33Uxytox1E, OU=0015800001041RHAAY, O=Example TPP Ltd, C=GB',
      notBefore: new Date('2020-01-01T00:00:00Z'),
      validDays: 10,
    })
    const { checks } = checkTppPrerequisites({
      transportCertificate: expired.cert,
      transportKey: createPrivateKey(pki.transport.keyPem),
      softwareStatement: unsignedJwt(ssaClaims({ software_redirect_uris: [] })),
      caCertificates: [pki.issuing.cert],
    })
    const pass = byName(checks)
    expect(pass['3. Transport certificate matches its private key']).toBe(false)
    expect(pass['3. Transport certificate chains to the ecosystem CAs']).toBe(false)
    expect(pass['3. Transport certificate not expired']).toBe(false)
    expect(pass['4. At least one redirect URI']).toBe(false)
    expect(pass['5. Root and issuing CA certificates held']).toBe(false)
    expect(pass['1. Registered in the open banking directory']).toBe(true)
  })

  it('warns when the transport certificate was issued for another software statement', () => {
    const { checks } = checkTppPrerequisites({
      transportCertificate: pki.transport.cert,
      softwareStatement: unsignedJwt(ssaClaims({ software_id: 'OtherSoftware' })),
    })
    const check = checks.find((c) => c.name === '3. Transport certificate belongs to the software statement')
    expect(check).toMatchObject({ pass: false, severity: 'warning', expected: 'CN=OtherSoftware (the software id)' })
  })

  it('leaves a transport certificate of the software statement as a plain pass, with no warning', () => {
    const { checks } = checkTppPrerequisites({
      transportCertificate: pki.transport.cert,
      softwareStatement: unsignedJwt(ssaClaims()),
    })
    const check = checks.find((c) => c.name === '3. Transport certificate belongs to the software statement')
    expect(check).toMatchObject({ pass: true })
    expect(check).not.toHaveProperty('severity')
  })

  it('reports an unreadable software statement', () => {
    const { checks } = checkTppPrerequisites({ softwareStatement: 'garbage' })
    expect(checks[1]).toMatchObject({ name: '2. Software statement present', pass: false })
    expect(checks[1]!.actual).toMatch(/three parts/)
  })
})

describe('checkTppPrerequisites: a self-signed transport certificate', () => {
  const selfSignedInput = async () => {
    const self = await createSelfSignedCertificate(
      { subject: pki.transport.cert.subjectName.toJSON(), extendedKeyUsages: ['clientAuth'] },
      new Date(),
      pki.transport.keys,
    )
    return {
      transportCertificate: self.cert,
      transportKey: createPrivateKey(pki.transport.keyPem),
      softwareStatement: unsignedJwt(ssaClaims()),
      caCertificates: [pki.root.cert, pki.issuing.cert],
    }
  }
  const chainCheck = (checks: Array<{ name: string }>) =>
    checks.find((c) => c.name === '3. Transport certificate chains to the ecosystem CAs')

  it('passes with a warning that says production requires a directory-issued certificate when the identity is used with sandboxes only', async () => {
    const { checks } = checkTppPrerequisites({ ...(await selfSignedInput()), selfSignedTransportAllowed: true })
    expect(checks.filter((c) => !c.pass)).toEqual([])
    expect(chainCheck(checks)).toMatchObject({
      pass: true,
      severity: 'warning',
      actual: expect.stringMatching(/^self-signed \(CN=/),
      hint: SELF_SIGNED_TRANSPORT_HINT,
    })
    expect(SELF_SIGNED_TRANSPORT_HINT).toMatch(/production accepts only a certificate issued by the directory's CA/)
  })

  it('fails the chain check otherwise (production, or no environment)', async () => {
    const { checks } = checkTppPrerequisites(await selfSignedInput())
    expect(chainCheck(checks)).toMatchObject({ pass: false })
  })
})
