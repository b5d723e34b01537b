import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { randomBytes } from 'node:crypto'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createKeyFileEncryptor, createMasterKeyEncryptor } from '../../../src-main/certificates/key-file-encryptor.ts'
import {
  CLEAR_KEY_FILE,
  clearKeyFileSource,
  keychainMasterKeySource,
  WRAPPED_KEY_FILE,
  type OsKeychain,
} from '../../../src-main/certificates/master-key.ts'
import { EncryptedFileSecretStore } from '../../../src-main/certificates/secret-store.ts'
import { isAppError } from '../../../src-main/core/app-error.ts'

const root = mkdtempSync(join(tmpdir(), 'ob-master-key-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))
let n = 0
const freshDir = () => join(root, `d${++n}`)
const posix = process.platform !== 'win32'

/**
 * A stand-in for safeStorage: AES-GCM under a key of its own (the "user's keychain"), so a blob it
 * wrapped opens only with the same keychain, as the real one. Availability and backend can be switched.
 */
function fakeKeychain(init: { available?: boolean; backend?: string } = {}) {
  const inner = createMasterKeyEncryptor({
    load: (() => {
      const k = randomBytes(32)
      return () => k
    })(),
    protection: () => ({ kind: 'key-file', detail: '' }),
  })
  const state = { available: init.available ?? true, backend: init.backend ?? 'gnome_libsecret', wraps: 0 }
  const keychain: OsKeychain & { state: typeof state } = {
    state,
    isEncryptionAvailable: () => state.available,
    getSelectedStorageBackend: () => state.backend,
    encryptString: (s) => {
      if (!state.available) throw new Error('Encryption is not available.')
      state.wraps++
      return inner.encryptString(s)
    },
    decryptString: (b) => {
      if (!state.available) throw new Error('Decryption is not available.')
      return inner.decryptString(b)
    },
  }
  return keychain
}

function storeErrorOf(fn: () => unknown): { what: string; cause: string; fix: string } {
  try {
    fn()
  } catch (err) {
    if (isAppError(err) && err.code === 'STORE_ERROR') return err
    throw err
  }
  throw new Error('expected a STORE_ERROR')
}

describe('the clear key file (web host, CLI)', () => {
  it('creates 32 random bytes readable by the user alone, and reads the same key back', () => {
    const dir = freshDir()
    const source = clearKeyFileSource(join(dir, CLEAR_KEY_FILE))
    const key = source.load()
    expect(key).toHaveLength(32)
    if (posix) expect(statSync(join(dir, CLEAR_KEY_FILE)).mode & 0o777).toBe(0o600)
    expect(clearKeyFileSource(join(dir, CLEAR_KEY_FILE)).load().equals(key)).toBe(true)
    expect(source.protection()).toEqual({ kind: 'key-file', detail: expect.stringMatching(/0600/) })
  })

  it.runIf(posix)('refuses a key file other users may read, saying how to fix it', () => {
    const dir = freshDir()
    const file = join(dir, CLEAR_KEY_FILE)
    clearKeyFileSource(file).load()
    chmodSync(file, 0o644)
    expect(storeErrorOf(() => clearKeyFileSource(file).load()).fix).toContain(`chmod 600 '${file}'`)
  })

  it('refuses a damaged key file', () => {
    const dir = freshDir()
    clearKeyFileSource(join(dir, CLEAR_KEY_FILE)).load()
    writeFileSync(join(dir, CLEAR_KEY_FILE), Buffer.alloc(7), { mode: 0o600 })
    expect(storeErrorOf(() => clearKeyFileSource(join(dir, CLEAR_KEY_FILE)).load()).cause).toMatch(
      /7 bytes instead of 32/,
    )
  })
})

describe('the desktop master key, wrapped by the OS keychain', () => {
  it('on a fresh install writes only the wrapped key: no clear key on disk', () => {
    const dir = freshDir()
    const keychain = fakeKeychain()
    const source = keychainMasterKeySource({ dir, keychain, log: () => undefined })
    const key = source.load()
    expect(existsSync(join(dir, CLEAR_KEY_FILE))).toBe(false)
    const wrapped = readFileSync(join(dir, WRAPPED_KEY_FILE))
    expect(wrapped.includes(key)).toBe(false)
    expect(wrapped.includes(Buffer.from(key.toString('base64')))).toBe(false)
    if (posix) expect(statSync(join(dir, WRAPPED_KEY_FILE)).mode & 0o777).toBe(0o600)
    expect(
      keychainMasterKeySource({ dir, keychain, log: () => undefined })
        .load()
        .equals(key),
    ).toBe(true)
    expect(source.protection()).toEqual({ kind: 'os-keychain', detail: 'wrapped by the OS keychain (gnome_libsecret)' })
  })

  it('migrates a clear key file of an earlier version: same key, secrets still open, clear copy removed', async () => {
    const dir = freshDir()
    const clear = createKeyFileEncryptor(join(dir, CLEAR_KEY_FILE))
    const before = new EncryptedFileSecretStore(dir, clear)
    await before.put('transport-key-1', '-----BEGIN PRIVATE' + ' KEY-----\nabc\n-----END PRIVATE KEY-----')
    const keychain = fakeKeychain()
    const log: string[] = []
    const source = keychainMasterKeySource({ dir, keychain, log: (l) => log.push(l) })
    const after = new EncryptedFileSecretStore(dir, createMasterKeyEncryptor(source, { legacy: keychain }))
    expect(await after.get('transport-key-1')).toContain('BEGIN PRIVATE' + ' KEY')
    expect(existsSync(join(dir, CLEAR_KEY_FILE))).toBe(false)
    expect(existsSync(join(dir, WRAPPED_KEY_FILE))).toBe(true)
    expect(log.join('\n')).toMatch(/now wrapped by the OS keychain.*clear copy .* was removed/)
    // A new start unwraps; nothing is wrapped again.
    const wraps = keychain.state.wraps
    expect(
      await new EncryptedFileSecretStore(
        dir,
        createMasterKeyEncryptor(keychainMasterKeySource({ dir, keychain, log: () => undefined })),
      ).get('transport-key-1'),
    ).toContain('BEGIN PRIVATE' + ' KEY')
    expect(keychain.state.wraps).toBe(wraps)
  })

  it('finishes a migration that stopped before removing the clear copy, and refuses two different keys', () => {
    const dir = freshDir()
    const keychain = fakeKeychain()
    const key = keychainMasterKeySource({ dir, keychain, log: () => undefined }).load()
    writeFileSync(join(dir, CLEAR_KEY_FILE), key, { mode: 0o600 })
    expect(
      keychainMasterKeySource({ dir, keychain, log: () => undefined })
        .load()
        .equals(key),
    ).toBe(true)
    expect(existsSync(join(dir, CLEAR_KEY_FILE))).toBe(false)
    writeFileSync(join(dir, CLEAR_KEY_FILE), randomBytes(32), { mode: 0o600 })
    expect(storeErrorOf(() => keychainMasterKeySource({ dir, keychain, log: () => undefined }).load()).cause).toMatch(
      /hold different keys/,
    )
    expect(existsSync(join(dir, CLEAR_KEY_FILE))).toBe(true)
  })

  it.each([
    ['no keyring at all', { available: false }],
    ["Electron's fixed-password fallback (basic_text)", { available: true, backend: 'basic_text' }],
  ])('without a keychain (%s) keeps a 0600 key file, says so once, and migrates when one appears', (_label, init) => {
    const dir = freshDir()
    const keychain = fakeKeychain(init)
    const log: string[] = []
    const source = keychainMasterKeySource({ dir, keychain, log: (l) => log.push(l) })
    const key = source.load()
    source.load()
    expect(log).toHaveLength(1)
    expect(log[0]).toMatch(/OS keychain is not available.*0600/)
    expect(source.protection()).toEqual({ kind: 'key-file', detail: expect.stringMatching(/not available.*0600/) })
    expect(existsSync(join(dir, WRAPPED_KEY_FILE))).toBe(false)
    if (posix) expect(statSync(join(dir, CLEAR_KEY_FILE)).mode & 0o777).toBe(0o600)
    keychain.state.available = true
    keychain.state.backend = 'kwallet5'
    expect(
      keychainMasterKeySource({ dir, keychain, log: () => undefined })
        .load()
        .equals(key),
    ).toBe(true)
    expect(existsSync(join(dir, CLEAR_KEY_FILE))).toBe(false)
  })

  it('never replaces a wrapped key when the keychain is gone: a STORE_ERROR, no clear key created', () => {
    const dir = freshDir()
    const keychain = fakeKeychain()
    keychainMasterKeySource({ dir, keychain, log: () => undefined }).load()
    keychain.state.available = false
    const err = storeErrorOf(() => keychainMasterKeySource({ dir, keychain, log: () => undefined }).load())
    expect(err.cause).toMatch(/wrapped by the OS keychain.*not available/)
    expect(err.fix).toMatch(/keyring/)
    expect(keychainMasterKeySource({ dir, keychain, log: () => undefined }).protection().detail).toMatch(
      /cannot be read until it is/,
    )
    expect(existsSync(join(dir, CLEAR_KEY_FILE))).toBe(false)
  })

  it("a wrapped key another user's keychain made does not open: a STORE_ERROR naming the likely cause", () => {
    const dir = freshDir()
    keychainMasterKeySource({ dir, keychain: fakeKeychain(), log: () => undefined }).load()
    const err = storeErrorOf(() =>
      keychainMasterKeySource({ dir, keychain: fakeKeychain(), log: () => undefined }).load(),
    )
    expect(err.cause).toMatch(/another user or machine/)
  })
})

describe("the master-key encryptor's legacy reading", () => {
  it('opens secrets an earlier desktop version encrypted with safeStorage directly; writes the new format', () => {
    const dir = freshDir()
    const keychain = fakeKeychain()
    const legacyBlob = keychain.encryptString('client-secret-1')
    const encryptor = createMasterKeyEncryptor(keychainMasterKeySource({ dir, keychain, log: () => undefined }), {
      legacy: keychain,
    })
    expect(encryptor.decryptString(legacyBlob)).toBe('client-secret-1')
    const fresh = encryptor.encryptString('client-secret-2')
    expect(fresh[0]).toBe(1)
    expect(
      createMasterKeyEncryptor(keychainMasterKeySource({ dir, keychain, log: () => undefined })).decryptString(fresh),
    ).toBe('client-secret-2')
  })

  it("a blob neither opens is refused with the format's own error", () => {
    const dir = freshDir()
    const keychain = fakeKeychain()
    const encryptor = createMasterKeyEncryptor(keychainMasterKeySource({ dir, keychain, log: () => undefined }), {
      legacy: keychain,
    })
    const blob = encryptor.encryptString('x')
    blob[blob.length - 1]! ^= 1
    expect(() => encryptor.decryptString(blob)).toThrow(/unable to authenticate|auth/i)
    expect(() => encryptor.decryptString(Buffer.from('garbage'))).toThrow(/unknown format/)
  })
})
