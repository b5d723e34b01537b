import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createKeyFileEncryptor } from '../../../src-main/certificates/key-file-encryptor.ts'
import { EncryptedFileSecretStore, type StringEncryptor } from '../../../src-main/certificates/secret-store.ts'
import { isAppError } from '../../../src-main/core/app-error.ts'

const tmp = mkdtempSync(join(tmpdir(), 'ob-secrets-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p
  } catch (err) {
    if (isAppError(err)) return err.code
    throw err
  }
  throw new Error('expected an AppError')
}

describe('EncryptedFileSecretStore', () => {
  it('puts, gets, lists and deletes secrets, encrypted at rest in 0600 files', async () => {
    const dir = join(tmp, 's1')
    const store = new EncryptedFileSecretStore(dir, createKeyFileEncryptor(join(dir, 'master.key')))
    await store.put('identity-1', 'PRIVATE KEY MATERIAL')
    await store.put('client-secret.a', 's3cr3t')
    expect(await store.get('identity-1')).toBe('PRIVATE KEY MATERIAL')
    expect(await store.list()).toEqual(['client-secret.a', 'identity-1'])
    const file = join(dir, 'identity-1.secret')
    expect(readFileSync(file).toString('latin1')).not.toContain('PRIVATE KEY MATERIAL')
    expect(statSync(file).mode & 0o777).toBe(0o600)
    await store.put('identity-1', 'replaced')
    expect(await store.get('identity-1')).toBe('replaced')
    expect(await store.delete('identity-1')).toBe(true)
    expect(await store.delete('identity-1')).toBe(false)
    expect(await store.get('identity-1')).toBeUndefined()
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([])
  })

  it('refuses ids that could escape the directory', async () => {
    const store = new EncryptedFileSecretStore(join(tmp, 's2'), createKeyFileEncryptor(join(tmp, 's2.key')))
    for (const id of ['../x', 'a/b', '', '.hidden', 'x'.repeat(200)])
      expect(await codeOf(store.put(id, 'v'))).toBe('INVALID_INPUT')
  })

  it('says the master key changed when a secret cannot be decrypted', async () => {
    const dir = join(tmp, 's3')
    await new EncryptedFileSecretStore(dir, createKeyFileEncryptor(join(tmp, 'k1.key'))).put('a', 'v')
    const other = new EncryptedFileSecretStore(dir, createKeyFileEncryptor(join(tmp, 'k2.key')))
    try {
      await other.get('a')
      expect.unreachable()
    } catch (err) {
      expect(isAppError(err) && err.code).toBe('STORE_ERROR')
      expect(isAppError(err) && err.cause).toMatch(/another master key/)
    }
  })

  it('works with any safeStorage-shaped encryptor and reports when encryption is unavailable', async () => {
    let available = true
    const fake: StringEncryptor = {
      isEncryptionAvailable: () => available,
      encryptString: (s) => Buffer.from(s, 'utf8').reverse(),
      decryptString: (b) => Buffer.from(b).reverse().toString('utf8'),
    }
    const store = new EncryptedFileSecretStore(join(tmp, 's4'), fake)
    await store.put('k', 'value')
    expect(await store.get('k')).toBe('value')
    available = false
    expect(await codeOf(store.put('k2', 'v'))).toBe('STORE_ERROR')
    expect(await codeOf(store.get('k'))).toBe('STORE_ERROR')
  })
})
