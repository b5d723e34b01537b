import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import { clearKeyFileSource, type MasterKeySource } from './master-key.ts'
import type { StringEncryptor } from './secret-store.ts'

const VERSION = 1
const IV_BYTES = 12
const TAG_BYTES = 16

/**
 * AES-256-GCM encryption under the master key of `source` (master-key.ts), loaded on first use.
 * Output: version byte, 12-byte IV, 16-byte tag, ciphertext. `legacy` decrypts what an earlier
 * version wrote another way (the desktop app used to encrypt each secret with `safeStorage` itself):
 * a blob this format does not open is handed to it; new secrets are always written in this format.
 *
 * @example const encryptor = createMasterKeyEncryptor(keychainMasterKeySource({ dir: layout.secrets, keychain: safeStorage, log }), { legacy: safeStorage })
 */
export function createMasterKeyEncryptor(
  source: MasterKeySource,
  options: { legacy?: Pick<StringEncryptor, 'decryptString'> } = {},
): StringEncryptor {
  let key: Buffer | undefined
  const getKey = () => (key ??= source.load())
  const decrypt = (encrypted: Buffer): string => {
    if (encrypted.length < 1 + IV_BYTES + TAG_BYTES || encrypted[0] !== VERSION)
      throw new Error('not a secret written by this console (unknown format)')
    const iv = encrypted.subarray(1, 1 + IV_BYTES)
    const tag = encrypted.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES)
    const decipher = createDecipheriv('aes-256-gcm', getKey(), iv)
    decipher.setAuthTag(tag)
    return Buffer.concat([decipher.update(encrypted.subarray(1 + IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
      'utf8',
    )
  }
  return {
    isEncryptionAvailable: () => true,
    protection: () => source.protection(),
    encryptString(plainText: string): Buffer {
      const iv = randomBytes(IV_BYTES)
      const cipher = createCipheriv('aes-256-gcm', getKey(), iv)
      const body = Buffer.concat([cipher.update(plainText, 'utf8'), cipher.final()])
      return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), body])
    },
    decryptString(encrypted: Buffer): string {
      const legacy = options.legacy
      if (!legacy) return decrypt(encrypted)
      try {
        return decrypt(encrypted)
      } catch (err) {
        // A master key that cannot be had is not a format question: report it as it is.
        if ((err as { code?: string }).code === 'STORE_ERROR') throw err
        try {
          return legacy.decryptString(encrypted)
        } catch {
          throw err
        }
      }
    },
  }
}

/**
 * AES-256-GCM encryption with a random master key kept in `keyFile`, created readable by the user
 * alone (0600) and refused if other users may read it. The StringEncryptor for the web host and the CLI.
 *
 * @example const encryptor = createKeyFileEncryptor(join(layout.secrets, 'master.key'))
 */
export function createKeyFileEncryptor(keyFile: string): StringEncryptor {
  return createMasterKeyEncryptor(clearKeyFileSource(keyFile))
}
