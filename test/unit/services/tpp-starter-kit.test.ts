import { generateKeyPairSync } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { starterKitKeys, starterKitRecord, type StarterKitJson } from '../../../src-main/services/tpp-starter-kit.ts'
import { ORG_ID, SOFTWARE_ID, testPki, type TestPki } from '../certificates/pki-fixture.ts'

let pki: TestPki
beforeAll(async () => {
  pki = await testPki()
})

function kit(overrides: Partial<StarterKitJson> = {}): StarterKitJson {
  const signing = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey
  return {
    orgId: ORG_ID,
    orgName: 'Example TPP Ltd',
    softwareId: SOFTWARE_ID,
    clientName: 'Example app',
    redirectUris: ['https://tpp.example/cb'],
    ssa: 'h.p.s',
    signingKid: 'kid-1',
    signingKeyPem: signing.export({ format: 'pem', type: 'pkcs8' }) as string,
    transportCertPem: pki.transport.certPem,
    transportKeyPem: pki.transport.keyPem,
    caBundlePem: `${pki.root.certPem}\n${pki.issuing.certPem}`,
    ...overrides,
  }
}

describe('the starter kit as a TPP identity', () => {
  it("takes the organisation, software, SSA and redirect URIs, and the bundle's root and issuing CAs", () => {
    const now = new Date('2026-01-01T00:00:00Z')
    const r = starterKitRecord(kit(), undefined, now)
    expect(r).toMatchObject({
      name: 'Example app',
      orgId: ORG_ID,
      softwareId: SOFTWARE_ID,
      ssa: 'h.p.s',
      redirectUris: ['https://tpp.example/cb'],
      createdAt: now.toISOString(),
    })
    expect(r.rootCaPem?.trim()).toBe(pki.root.certPem.trim())
    expect(r.issuingCaPem?.trim()).toBe(pki.issuing.certPem.trim())
    expect(r.transport).toBeUndefined()
    expect(starterKitRecord(kit(), '  My app ', now).name).toBe('My app')
    expect(starterKitRecord(kit({ caBundlePem: '' }), undefined, now)).not.toHaveProperty('rootCaPem')
  })

  it('reads its transport certificate with its key and its signing key; a key that is not the certificate’s is refused', async () => {
    const keys = await starterKitKeys(kit())
    expect(keys.transport.leafPem).toContain('BEGIN CERTIFICATE')
    expect(keys.transport.chainPem).toBeUndefined()
    expect(keys.signingKey.asymmetricKeyType).toBe('rsa')
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
      format: 'pem',
      type: 'pkcs8',
    })
    await expect(starterKitKeys(kit({ transportKeyPem: other as string }))).rejects.toThrow(
      expect.objectContaining({ code: expect.stringMatching(/KEY_MISMATCH|KEY_INVALID/) }),
    )
  })
})
