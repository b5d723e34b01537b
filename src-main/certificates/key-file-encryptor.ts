import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { AppError } from '../core/app-error.ts'
import type { StringEncryptor } from './secret-store.ts'

const VERSION = 1
const IV_BYTES = 12
const TAG_BYTES = 16
const KEY_BYTES = 32

function loadOrCreateKey(keyFile: string): Buffer {
  if (!existsSync(keyFile)) {
    mkdirSync(dirname(keyFile), { recursive: true, mode: 0o700 })
    const key = randomBytes(KEY_BYTES)
    // `wx`: never overwrite a key another process created meanwhile.
    try {
      writeFileSync(keyFile, key, { mode: 0o600, flag: 'wx' })
      return key
    } catch (err) {
      if ((err as { code?: string }).code !== 'EEXIST') throw err
    }
  }
  if (process.platform !== 'win32') {
    const mode = statSync(keyFile).mode & 0o777
    if ((mode & 0o077) !== 0) {
      throw new AppError('STORE_ERROR', {
        what: `Opening the master key file ${keyFile} failed`,
        cause: `its permissions (${mode.toString(8)}) let other users read it, so the secrets it protects may be exposed`,
        fix: `run: chmod 600 '${keyFile}' (and consider the stored keys exposed if other users could read it)`,
      })
    }
  }
  const key = readFileSync(keyFile)
  if (key.length !== KEY_BYTES) {
    throw new AppError('STORE_ERROR', {
      what: `Opening the master key file ${keyFile} failed`,
      cause: `it holds ${key.length} bytes instead of ${KEY_BYTES}: it is damaged or not a key file`,
      fix: 'restore the file from a backup; otherwise delete it and import the certificates and keys again',
    })
  }
  return key
}

/**
 * AES-256-GCM encryption with a random master key kept in `keyFile`, created readable by the user
 * alone (0600) and refused if other users may read it. Output: version byte, 12-byte IV, 16-byte tag,
 * ciphertext. The StringEncryptor for the web host and the CLI (the desktop app uses safeStorage).
 *
 * @example const encryptor = createKeyFileEncryptor(join(layout.secrets, 'master.key'))
 */
export function createKeyFileEncryptor(keyFile: string): StringEncryptor {
  let key: Buffer | undefined
  const getKey = () => (key ??= loadOrCreateKey(keyFile))
  return {
    isEncryptionAvailable: () => true,
    encryptString(plainText: string): Buffer {
      const iv = randomBytes(IV_BYTES)
      const cipher = createCipheriv('aes-256-gcm', getKey(), iv)
      const body = Buffer.concat([cipher.update(plainText, 'utf8'), cipher.final()])
      return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), body])
    },
    decryptString(encrypted: Buffer): string {
      if (encrypted.length < 1 + IV_BYTES + TAG_BYTES || encrypted[0] !== VERSION) throw new Error('not a secret written by this console (unknown format)')
      const iv = encrypted.subarray(1, 1 + IV_BYTES)
      const tag = encrypted.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES)
      const decipher = createDecipheriv('aes-256-gcm', getKey(), iv)
      decipher.setAuthTag(tag)
      return Buffer.concat([decipher.update(encrypted.subarray(1 + IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8')
    },
  }
}

