import { mkdirSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { AppError, isAppError } from '../core/app-error.ts'
import { readFileWithBackup, removeWithBackup, writeFileAtomic } from '../plumbing/atomic-file.ts'
import type { MasterKeyProtection } from './master-key.ts'

/**
 * Encrypts strings at rest. Shaped like Electron's `safeStorage` (isEncryptionAvailable,
 * encryptString, decryptString). Every face passes a master-key encryptor (key-file-encryptor.ts):
 * the desktop app's master key is wrapped by the OS keychain, the web host's and CLI's sits in a
 * 0600 key file (master-key.ts).
 */
export interface StringEncryptor {
  isEncryptionAvailable(): boolean
  encryptString(plainText: string): Buffer
  decryptString(encrypted: Buffer): string
  /** How the key behind this encryptor is protected (reported by app.info). */
  protection?(): MasterKeyProtection
}

/** The secret store port: secrets (private keys, client secrets) by id, encrypted at rest. */
export interface SecretStore {
  put(id: string, secret: string): Promise<void>
  /** The secret, or undefined when there is none with this id. */
  get(id: string): Promise<string | undefined>
  /** True when a secret was deleted. */
  delete(id: string): Promise<boolean>
  list(): Promise<string[]>
}

const ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/
const SUFFIX = '.secret'

function checkId(id: string): void {
  if (!ID.test(id)) {
    throw new AppError('INVALID_INPUT', {
      what: `Using the secret id "${id.slice(0, 40)}" failed`,
      cause: 'secret ids are 1 to 128 letters, digits, dots, dashes or underscores, starting with a letter or digit',
      fix: 'use an id such as "transport-key-1"',
    })
  }
}

function storeError(what: string, err: unknown): AppError {
  const code = (err as { code?: string }).code
  return new AppError('STORE_ERROR', {
    what,
    cause:
      code === 'EACCES' || code === 'EPERM'
        ? 'the console may not read or write its secrets directory'
        : code === 'ENOSPC'
          ? 'the disk is full'
          : `the file system refused: ${(err as Error).message}`,
    fix: 'check the owner and permissions of the console data directory (OB_CONSOLE_DATA_DIR) and the free disk space',
    source: err,
  })
}

/**
 * A SecretStore keeping one encrypted file per secret (`<id>.secret`, mode 0600) in `dir`. Writes are
 * atomic (temporary file, fsync, rename) and keep the previous version as `<id>.secret.bak`; a secret
 * whose file is missing or unreadable is read from that backup.
 *
 * @example const store = new EncryptedFileSecretStore(layout.secrets, createKeyFileEncryptor(join(layout.secrets, 'master.key')))
 */
export class EncryptedFileSecretStore implements SecretStore {
  constructor(
    private readonly dir: string,
    private readonly encryptor: StringEncryptor,
  ) {
    mkdirSync(dir, { recursive: true, mode: 0o700 })
  }

  private assertAvailable(): void {
    if (!this.encryptor.isEncryptionAvailable()) {
      throw new AppError('STORE_ERROR', {
        what: 'Using the secret store failed',
        cause:
          'encryption is not available (on Linux desktops, no keyring service such as gnome-keyring or kwallet is running)',
        fix: 'start a keyring service, or run the console as a web host or CLI, which keep a key file in the data directory',
      })
    }
  }

  async put(id: string, secret: string): Promise<void> {
    checkId(id)
    this.assertAvailable()
    const file = join(this.dir, id + SUFFIX)
    try {
      writeFileAtomic(file, this.encryptor.encryptString(secret), { mode: 0o600 })
    } catch (err) {
      throw storeError(`Storing the secret "${id}" failed`, err)
    }
  }

  async get(id: string): Promise<string | undefined> {
    checkId(id)
    try {
      return readFileWithBackup(join(this.dir, id + SUFFIX), (encrypted) => {
        this.assertAvailable()
        return this.encryptor.decryptString(encrypted)
      })?.value
    } catch (err) {
      if (isAppError(err)) throw err
      if (typeof (err as { code?: unknown }).code === 'string' && (err as { syscall?: unknown }).syscall)
        throw storeError(`Reading the secret "${id}" failed`, err)
      throw new AppError('STORE_ERROR', {
        what: `Decrypting the secret "${id}" failed`,
        cause:
          'it was encrypted with another master key (the key file was replaced, or the data directory was copied from another machine or user) or the file is damaged',
        fix: 'import the certificate and key again; secrets cannot be moved between machines',
        source: err,
      })
    }
  }

  async delete(id: string): Promise<boolean> {
    checkId(id)
    try {
      return removeWithBackup(join(this.dir, id + SUFFIX))
    } catch (err) {
      throw storeError(`Deleting the secret "${id}" failed`, err)
    }
  }

  async list(): Promise<string[]> {
    try {
      return readdirSync(this.dir)
        .filter((f) => f.endsWith(SUFFIX))
        .map((f) => f.slice(0, -SUFFIX.length))
        .sort()
    } catch (err) {
      throw storeError('Listing the secrets failed', err)
    }
  }
}
