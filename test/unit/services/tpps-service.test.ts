import { generateKeyPairSync } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import forge from 'node-forge'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSelfSignedCertificate } from '../../../src-main/certificates/generate.ts'
import { ORG_ID, SOFTWARE_ID, ssaClaims, testPki, unsignedJwt, type TestPki } from '../certificates/pki-fixture.ts'
import { removeTempStores, tempTppsService } from './support/temp-stores.ts'

let pki: TestPki
beforeAll(async () => {
  pki = await testPki()
})
afterAll(removeTempStores)

const service = () => tempTppsService('tpps-')

describe('TppsService', () => {
  it('imports a transport certificate and key (PEM): public facts in the settings, the key encrypted, never in plain text on disk', async () => {
    const { tpps, dir, store } = service()
    const tpp = tpps.save({ name: 'Budget app', redirectUris: ['https://app.example/cb'] })
    const dto = await tpps.importPem({
      tppId: tpp.id,
      role: 'transport',
      certificatePem: pki.transport.certPem,
      keyPem: pki.transport.keyPem,
    })
    expect(dto.transport?.certificate?.orgId).toBe(ORG_ID)
    expect(dto.transport?.key.publicJwk).not.toHaveProperty('d')
    expect(JSON.stringify(store.get('tpps'))).not.toContain('PRIVATE KEY')
    const onDisk = readdirSync(join(dir, 'secrets'))
      .filter((f) => f.endsWith('.secret'))
      .map((f) => readFileSync(join(dir, 'secrets', f), 'latin1'))
    expect(onDisk).toHaveLength(1)
    expect(onDisk[0]).not.toContain('PRIVATE KEY')
    const material = await tpps.material(tpp.id)
    expect(material.transport?.keyPem).toContain('BEGIN PRIVATE' + ' KEY')
    // Read once per stored record: the same material until the identity changes.
    expect(await tpps.material(tpp.id)).toBe(material)
    tpps.save({ id: tpp.id, name: 'Budget app (renamed)', redirectUris: ['https://app.example/cb'] })
    const again = await tpps.material(tpp.id)
    expect(again).not.toBe(material)
    expect(again.record.name).toBe('Budget app (renamed)')
    expect(again.transport?.keyPem).toBe(material.transport?.keyPem)
  })

  it('refuses a transport key that does not match its certificate, naming the mismatch, and keeps the identity unchanged', async () => {
    const { tpps } = service()
    const tpp = tpps.save({ name: 'x', redirectUris: [] })
    const otherKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
      type: 'pkcs8',
      format: 'pem',
    }) as string
    await expect(
      tpps.importPem({ tppId: tpp.id, role: 'transport', certificatePem: pki.transport.certPem, keyPem: otherKey }),
    ).rejects.toMatchObject({ code: expect.stringMatching(/KEY_MISMATCH|KEY_INVALID/) })
    expect(tpps.list()[0]?.transport).toBeUndefined()
  })

  it('imports PKCS#12 with its passphrase, and says so when the passphrase is wrong', async () => {
    const { tpps } = service()
    const tpp = tpps.save({ name: 'p12', redirectUris: [] })
    const key = forge.pki.privateKeyFromPem(pki.transport.keyPem)
    const certs = [pki.transport.certPem, pki.issuing.certPem].map((p) => forge.pki.certificateFromPem(p))
    const der = Buffer.from(
      forge.asn1.toDer(forge.pkcs12.toPkcs12Asn1(key, certs, 's3cret', { algorithm: 'aes256' })).getBytes(),
      'binary',
    )
    await expect(
      tpps.importPkcs12({
        tppId: tpp.id,
        role: 'transport',
        pkcs12Base64: der.toString('base64'),
        passphrase: 'wrong',
      }),
    ).rejects.toMatchObject({ code: 'PASSPHRASE_WRONG' })
    const dto = await tpps.importPkcs12({
      tppId: tpp.id,
      role: 'transport',
      pkcs12Base64: der.toString('base64'),
      passphrase: 's3cret',
    })
    expect(dto.transport?.certificate?.softwareId).toBe(SOFTWARE_ID)
  })

  it('takes org, software and redirect URIs from the software statement, and checks the prerequisites item by item', async () => {
    const { tpps } = service()
    const tpp = tpps.save({ name: 'ssa', redirectUris: [] })
    const withSsa = tpps.importSoftwareStatement({ tppId: tpp.id, ssa: unsignedJwt(ssaClaims()) })
    expect(withSsa).toMatchObject({ orgId: ORG_ID, softwareId: SOFTWARE_ID })
    expect(withSsa.redirectUris.length).toBeGreaterThan(0)
    let checks = await tpps.checkPrerequisites(tpp.id)
    expect(checks.filter((c) => !c.pass).length).toBeGreaterThan(0)
    await tpps.importPem({
      tppId: tpp.id,
      role: 'transport',
      certificatePem: pki.transport.certPem,
      keyPem: pki.transport.keyPem,
    })
    await tpps.importPem({ tppId: tpp.id, role: 'rootCa', certificatePem: pki.root.certPem })
    await tpps.importPem({ tppId: tpp.id, role: 'issuingCa', certificatePem: pki.issuing.certPem })
    const signingKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
      type: 'pkcs8',
      format: 'pem',
    }) as string
    const signed = await tpps.importPem({ tppId: tpp.id, role: 'signing', keyPem: signingKey, kid: 'kid-1' })
    expect(signed.signing?.kid).toBe('kid-1')
    checks = await tpps.checkPrerequisites(tpp.id)
    expect(checks.filter((c) => !c.pass).map((c) => `${c.name}: ${c.actual}`)).toEqual([])
  })

  it('lets an identity used with sandboxes only hold a self-signed transport certificate, and says production needs the directory-issued one', async () => {
    const { tpps, envs } = service()
    const tpp = tpps.save({ name: 'self-signed', redirectUris: [] })
    tpps.importSoftwareStatement({ tppId: tpp.id, ssa: unsignedJwt(ssaClaims()) })
    const self = await createSelfSignedCertificate(
      { subject: pki.transport.cert.subjectName.toJSON(), extendedKeyUsages: ['clientAuth'] },
      new Date(),
      pki.transport.keys,
    )
    await tpps.importPem({
      tppId: tpp.id,
      role: 'transport',
      certificatePem: self.certPem,
      keyPem: pki.transport.keyPem,
    })
    await tpps.importPem({ tppId: tpp.id, role: 'rootCa', certificatePem: pki.root.certPem })
    await tpps.importPem({ tppId: tpp.id, role: 'issuingCa', certificatePem: pki.issuing.certPem })
    const chain = async () =>
      (await tpps.checkPrerequisites(tpp.id)).find(
        (c) => c.name === '3. Transport certificate chains to the ecosystem CAs',
      )
    // No environment uses the identity yet: held to production's rule.
    expect(await chain()).toMatchObject({ pass: false })
    const base = {
      baseUrl: 'https://rs.bank.example',
      authUrl: 'https://auth.bank.example',
      apiPaths: { registration: '/r', ais: '/a', pis: '/p' },
      appScheme: 'bankapp',
      allowedAuthMethods: ['private_key_jwt' as const],
      tppId: tpp.id,
    }
    envs.save({ ...base, name: 'Bank sandbox', kind: 'bank-sandbox', tlsVerification: 'off' })
    expect(await chain()).toMatchObject({
      pass: true,
      severity: 'warning',
      hint: expect.stringMatching(/production accepts only a certificate issued by the directory's CA/),
    })
    envs.save({ ...base, name: 'Bank', kind: 'production', tlsVerification: 'system' })
    expect(await chain()).toMatchObject({ pass: false })
  })

  it('refuses one-action onboarding outside the local sandbox, and bad redirect URIs, with the fix', async () => {
    const { tpps } = service()
    expect(() => tpps.save({ name: 'x', redirectUris: ['not a url'] })).toThrow(/not a URL/)
    await expect(tpps.onboardLocal({ environmentId: 'nope' })).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })
})
