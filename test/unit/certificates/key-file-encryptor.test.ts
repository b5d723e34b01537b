import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createKeyFileEncryptor } from '../../../src-main/certificates/key-file-encryptor.ts'
import { isAppError } from '../../../src-main/core/app-error.ts'

const tmp = mkdtempSync(join(tmpdir(), 'ob-enc-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

describe('key-file encryptor', () => {
  it('round-trips strings with a random IV each time and creates a 0600 key file', () => {
    const keyFile = join(tmp, 'a', 'master.key')
    const enc = createKeyFileEncryptor(keyFile)
    expect(enc.isEncryptionAvailable()).toBe(true)
    const a = enc.encryptString('-----BEGIN PRIVATE' + ' KEY-----\nsecret\n')
    const b = enc.encryptString('-----BEGIN PRIVATE' + ' KEY-----\nsecret\n')
    expect(a.equals(b)).toBe(false)
    expect(a.toString('latin1')).not.toContain('secret')
    expect(enc.decryptString(a)).toBe('-----BEGIN PRIVATE' + ' KEY-----\nsecret\n')
    expect(statSync(keyFile).mode & 0o777).toBe(0o600)
    expect(readFileSync(keyFile)).toHaveLength(32)
    // A second encryptor over the same key file reads what the first wrote.
    expect(createKeyFileEncryptor(keyFile).decryptString(a)).toBe('-----BEGIN PRIVATE' + ' KEY-----\nsecret\n')
  })

  it('rejects tampered ciphertext and another key', () => {
    const enc = createKeyFileEncryptor(join(tmp, 'b', 'master.key'))
    const data = enc.encryptString('hello')
    const tampered = Buffer.from(data)
    tampered[tampered.length - 1]! ^= 1
    expect(() => enc.decryptString(tampered)).toThrow()
    expect(() => createKeyFileEncryptor(join(tmp, 'c', 'master.key')).decryptString(data)).toThrow()
    expect(() => enc.decryptString(Buffer.from([9, 9]))).toThrow(/unknown format/)
  })

  it.skipIf(process.platform === 'win32')('refuses a key file other users can read, and a damaged one', () => {
    const keyFile = join(tmp, 'open.key')
    writeFileSync(keyFile, Buffer.alloc(32, 1))
    chmodSync(keyFile, 0o644)
    try {
      createKeyFileEncryptor(keyFile).encryptString('x')
      expect.unreachable()
    } catch (err) {
      expect(isAppError(err) && err.code).toBe('STORE_ERROR')
      expect(isAppError(err) && err.fix).toMatch(/chmod 600/)
    }
    const short = join(tmp, 'short.key')
    writeFileSync(short, Buffer.alloc(5), { mode: 0o600 })
    expect(() => createKeyFileEncryptor(short).encryptString('x')).toThrow(/5 bytes instead of 32/)
  })
})
