import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { IdentityVault } from '../../../src-main/certificates/identity-vault.ts'
import { createKeyFileEncryptor } from '../../../src-main/certificates/key-file-encryptor.ts'
import { keyMatchesCertificate } from '../../../src-main/certificates/key-match.ts'
import { EncryptedFileSecretStore } from '../../../src-main/certificates/secret-store.ts'
import { isAppError } from '../../../src-main/core/app-error.ts'
import { fixedClock } from '../../../src-main/core/clock.ts'
import { SOFTWARE_ID, testPki, type TestPki } from './pki-fixture.ts'

let pki: TestPki
const tmp = mkdtempSync(join(tmpdir(), 'ob-vault-'))
beforeAll(async () => {
  pki = await testPki()
})
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

function vault(name: string): IdentityVault {
  const dir = join(tmp, name)
  return new IdentityVault({
    file: join(dir, 'identities.json'),
    secrets: new EncryptedFileSecretStore(
      join(dir, 'secrets'),
      createKeyFileEncryptor(join(dir, 'secrets', 'master.key')),
    ),
    clock: fixedClock(new Date()),
  })
}

describe('IdentityVault', () => {
  it('imports an identity and exposes public facts only', async () => {
    const v = vault('a')
    const dto = await v.import({
      label: 'Transport',
      certPem: pki.transport.certPem + pki.issuing.certPem,
      keyPem: pki.transport.keyPem,
    })
    expect(dto.label).toBe('Transport')
    expect(dto.certificate.softwareId).toBe(SOFTWARE_ID)
    expect(dto.chain).toHaveLength(1)
    expect(dto.key.keyId).toBe(`identity-${dto.id}`)
    const serialised = JSON.stringify(dto)
    expect(serialised).not.toContain('PRIVATE KEY')
    expect(serialised).not.toMatch(/"d":/)
    // The metadata file holds no key either.
    expect(readFileSync(join(tmp, 'a', 'identities.json'), 'utf8')).not.toContain('PRIVATE KEY')
    expect(v.list().map((i) => i.id)).toEqual([dto.id])
    expect(v.get(dto.id).certificate.sha256Hex).toBe(dto.certificate.sha256Hex)
  })

  it('hands the key and TLS material to main-side code, and removes identities', async () => {
    const v = vault('b')
    const dto = await v.import({
      label: 'T',
      certPem: pki.transport.certPem + pki.issuing.certPem,
      keyPem: pki.transport.keyPem,
    })
    expect(keyMatchesCertificate(await v.privateKey(dto.id), pki.transport.cert)).toBe(true)
    const tls = await v.tlsMaterial(dto.id)
    expect(tls.certPem.match(/BEGIN CERTIFICATE/g)).toHaveLength(2)
    expect(tls.keyPem).toContain('BEGIN PRIVATE' + ' KEY')
    expect(await v.remove(dto.id)).toBe(true)
    expect(await v.remove(dto.id)).toBe(false)
    try {
      v.get(dto.id)
      expect.unreachable()
    } catch (err) {
      expect(isAppError(err) && err.code).toBe('NOT_FOUND')
    }
  })

  it('reads the version before the last write when the identities file is damaged, and says so when both are', async () => {
    const v = vault('damaged')
    const first = await v.import({ label: 'First', certPem: pki.transport.certPem, keyPem: pki.transport.keyPem })
    await v.import({ label: 'Second', certPem: pki.transport.certPem, keyPem: pki.transport.keyPem })
    const file = join(tmp, 'damaged', 'identities.json')
    writeFileSync(file, '{"identities": [')
    expect(v.list().map((i) => i.label)).toEqual(['First'])
    expect((await v.tlsMaterial(first.id)).keyPem).toContain('PRIVATE KEY')
    writeFileSync(`${file}.bak`, 'not json')
    let code: string | undefined
    try {
      v.list()
    } catch (err) {
      code = isAppError(err) ? err.code : 'other'
    }
    expect(code).toBe('STORE_ERROR')
  })
})
