import { createPrivateKey, generateKeyPairSync } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { importIdentity } from '../../../src-main/certificates/import-identity.ts'
import type { TppRecord } from '../../../src-main/services/persistence/settings-schema.ts'
import { TppKeys, transportMaterial } from '../../../src-main/services/tpp-keys.ts'
import { testPki, type TestPki } from '../certificates/pki-fixture.ts'
import { removeTempStores, tempSecrets } from './support/temp-stores.ts'

let pki: TestPki
beforeAll(async () => {
  pki = await testPki()
})
afterAll(removeTempStores)

function setUp() {
  const { secrets } = tempSecrets('tpp-keys-')
  return { keys: new TppKeys(secrets), secrets }
}

const bare: TppRecord = { id: 'tpp-1', name: 'Budget app', redirectUris: [], createdAt: '2026-01-01T00:00:00.000Z' }
const rsaKey = () => generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey

describe('TppKeys', () => {
  it('stores a transport key encrypted under a new id; the record points at it, and material reads it back with the chain', async () => {
    const { keys, secrets } = setUp()
    const m = transportMaterial(
      await importIdentity({
        certPem: `${pki.transport.certPem}\n${pki.issuing.certPem}`,
        keyPem: pki.transport.keyPem,
      }),
    )
    expect(m.chainPem).toContain('BEGIN CERTIFICATE')
    const r = await keys.withTransport(bare, m)
    expect(r.transport?.keySecretId).toMatch(/^tpp-key-/)
    expect(r.transport?.keyInfo.publicJwk).not.toHaveProperty('d')
    expect(JSON.stringify(r)).not.toContain('PRIVATE KEY')
    expect(await secrets.get(r.transport!.keySecretId)).toContain('BEGIN PRIVATE' + ' KEY')
    const material = await keys.material(r)
    expect(material.transport?.certPem).toBe(`${r.transport!.certificatePem}\n${r.transport!.chainPem}`)
    expect(createPrivateKey(material.transport!.keyPem).asymmetricKeyType).toBe('rsa')
  })

  it('keeps the material read for one stored record, and reads again once the record changes', async () => {
    const { keys } = setUp()
    const r = await keys.withSigning(bare, rsaKey(), 'kid-1')
    const material = await keys.material(r)
    expect(material.signing?.kid).toBe('kid-1')
    expect(await keys.material(r)).toBe(material)
    const renamed = { ...r, name: 'Budget app (renamed)' }
    const again = await keys.material(renamed)
    expect(again).not.toBe(material)
    expect(again.record.name).toBe('Budget app (renamed)')
    expect(again.signing?.key.equals(material.signing!.key)).toBe(true)
  })

  it('takes a frozen record it has seen (as the store hands them out) without comparing it again; a mutable one is compared each time', async () => {
    const { keys } = setUp()
    const r = await keys.withSigning(bare, rsaKey(), 'kid-1')
    const frozen = Object.freeze({ ...r })
    const material = await keys.material(frozen)
    expect(await keys.material(frozen)).toBe(material)
    const mutable = { ...r }
    const first = await keys.material(mutable)
    mutable.name = 'Changed in place'
    const second = await keys.material(mutable)
    expect(second).not.toBe(first)
    expect(second.record.name).toBe('Changed in place')
  })

  it('names the signing key by its JWK thumbprint when no kid is given', async () => {
    const { keys } = setUp()
    const r = await keys.withSigning(bare, rsaKey(), '  ')
    expect(r.signing?.kid).toBe(r.signing?.keyInfo.jwkThumbprint)
  })

  it('deletes only the keys a new record no longer points at, and every key of a removed identity', async () => {
    const { keys, secrets } = setUp()
    const first = await keys.withSigning(
      await keys.withTransport(bare, { leafPem: pki.transport.certPem, key: createPrivateKey(pki.transport.keyPem) }),
      rsaKey(),
      'k',
    )
    const second = await keys.withSigning(first, rsaKey(), 'k2')
    await keys.dropReplaced(first, second)
    expect(await secrets.get(first.signing!.keySecretId)).toBeUndefined()
    expect(await secrets.get(second.transport!.keySecretId)).toBeDefined()
    await keys.remove(second)
    expect(await secrets.get(second.transport!.keySecretId)).toBeUndefined()
    expect(await secrets.get(second.signing!.keySecretId)).toBeUndefined()
  })

  it('says which key is missing from the secret store, and does not keep the failure', async () => {
    const { keys, secrets } = setUp()
    const r = await keys.withSigning(bare, rsaKey(), 'kid-1')
    const pem = (await secrets.get(r.signing!.keySecretId))!
    await secrets.delete(r.signing!.keySecretId)
    await expect(keys.material(r)).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: expect.stringMatching(/signing key of "Budget app" is missing/),
    })
    await secrets.put(r.signing!.keySecretId, pem)
    expect((await keys.material(r)).signing?.kid).toBe('kid-1')
  })

  it('holds one generated key per identity and role until its certificate comes, refusing what is not a key', async () => {
    const { keys } = setUp()
    await expect(keys.holdPending('tpp-1', 'transport', 'not a key')).rejects.toMatchObject({
      code: expect.stringMatching(/^KEY_/),
    })
    expect(await keys.pending('tpp-1', 'transport')).toBeUndefined()
    await keys.holdPending('tpp-1', 'transport', pki.transport.keyPem)
    expect(await keys.pending('tpp-1', 'transport')).toBe(pki.transport.keyPem)
    expect(await keys.pending('tpp-1', 'signing')).toBeUndefined()
    await keys.dropPending('tpp-1', 'transport')
    expect(await keys.pending('tpp-1', 'transport')).toBeUndefined()
  })
})
