import { randomBytes, timingSafeEqual } from 'node:crypto'
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { AppError } from '../core/app-error.ts'

export const MASTER_KEY_BYTES = 32
/** The clear master key file (web host, CLI, and the desktop app when the OS keychain is unavailable). */
export const CLEAR_KEY_FILE = 'master.key'
/** The master key wrapped by the OS keychain (desktop app): only this blob is on disk. */
export const WRAPPED_KEY_FILE = 'master.key.os'

/** How the master key of the secret store is protected, as the console reports it (app.info, logs). */
export type MasterKeyProtection = { kind: 'os-keychain'; detail: string } | { kind: 'key-file'; detail: string }

/** Where the secret store's master key (32 random bytes, AES-256-GCM) comes from. */
export interface MasterKeySource {
  /** The key, created on first use. Throws a STORE_ERROR AppError when it cannot be had. */
  load(): Buffer
  protection(): MasterKeyProtection
}

/**
 * The OS keychain as Electron's `safeStorage` offers it (a port: tests pass a fake). On Linux,
 * `getSelectedStorageBackend` says which keyring is used; `basic_text` means none (a fixed password).
 */
export interface OsKeychain {
  isEncryptionAvailable(): boolean
  encryptString(plainText: string): Buffer
  decryptString(encrypted: Buffer): string
  getSelectedStorageBackend?(): string
}

function fail(what: string, cause: string, fix: string, source?: unknown): AppError {
  return new AppError('STORE_ERROR', { what, cause, fix, ...(source !== undefined ? { source } : {}) })
}

function fsCause(err: unknown): string {
  const code = (err as { code?: string }).code
  return code === 'EACCES' || code === 'EPERM'
    ? 'the console may not read or write its secrets directory'
    : code === 'ENOSPC'
      ? 'the disk is full'
      : `the file system refused: ${(err as Error).message}`
}

/** Refuses a key file other users may read (POSIX only). */
function checkPrivate(file: string): void {
  if (process.platform === 'win32') return
  const mode = statSync(file).mode & 0o777
  if ((mode & 0o077) !== 0) {
    throw fail(
      `Opening the master key file ${file} failed`,
      `its permissions (${mode.toString(8)}) let other users read it, so the secrets it protects may be exposed`,
      `run: chmod 600 '${file}' (and consider the stored keys exposed if other users could read it)`,
    )
  }
}

function checkLength(key: Buffer, file: string): Buffer {
  if (key.length !== MASTER_KEY_BYTES) {
    throw fail(
      `Opening the master key file ${file} failed`,
      `it holds ${key.length} bytes instead of ${MASTER_KEY_BYTES}: it is damaged or not a key file`,
      'restore the file from a backup; otherwise delete it and import the certificates and keys again',
    )
  }
  return key
}

/** Reads the clear key file (refused when other users may read it), or undefined when there is none. */
function readClearKey(file: string): Buffer | undefined {
  if (!existsSync(file)) return undefined
  checkPrivate(file)
  return checkLength(readFileSync(file), file)
}

/** Writes `data` to `file` readable by the user alone: a temporary file renamed into place. */
function writePrivate(file: string, data: Buffer): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 })
  const tmp = `${file}.${process.pid}.tmp`
  try {
    writeFileSync(tmp, data, { mode: 0o600 })
    if (process.platform !== 'win32') chmodSync(tmp, 0o600)
    renameSync(tmp, file)
  } catch (err) {
    rmSync(tmp, { force: true })
    throw fail(
      `Writing the master key file ${file} failed`,
      fsCause(err),
      'check the owner and permissions of the console data directory and the free disk space',
      err,
    )
  }
}

/**
 * The master key in a clear file, created readable by the user alone (0600) and refused when other
 * users may read it. What the web host and the CLI use: it protects the secrets from other users of
 * the machine (file permissions), not from anyone who runs as the same user or reads a backup.
 */
export function clearKeyFileSource(
  keyFile: string,
  detail = 'key file readable by this user alone (0600) beside the secrets',
): MasterKeySource {
  return {
    protection: () => ({ kind: 'key-file', detail }),
    load() {
      const existing = readClearKey(keyFile)
      if (existing) return existing
      mkdirSync(dirname(keyFile), { recursive: true, mode: 0o700 })
      const key = randomBytes(MASTER_KEY_BYTES)
      // `wx`: never overwrite a key another process created meanwhile.
      try {
        writeFileSync(keyFile, key, { mode: 0o600, flag: 'wx' })
        return key
      } catch (err) {
        if ((err as { code?: string }).code !== 'EEXIST')
          throw fail(
            `Creating the master key file ${keyFile} failed`,
            fsCause(err),
            'check the owner and permissions of the console data directory and the free disk space',
            err,
          )
      }
      return readClearKey(keyFile)!
    },
  }
}

/** Why the keychain cannot protect the key, or undefined when it can. */
function keychainUnavailable(keychain: OsKeychain): string | undefined {
  if (!keychain.isEncryptionAvailable())
    return 'the OS keychain is not available (on Linux: no keyring service such as gnome-keyring or KWallet runs in this session)'
  const backend = keychain.getSelectedStorageBackend?.()
  if (backend === 'basic_text')
    return 'the OS keychain is not available: Electron found no keyring service on this Linux desktop and would only use a fixed password (basic_text)'
  return undefined
}

/** The master key unwrapped by the OS keychain from `wrappedFile`; a refusal is said with its likely causes. */
function unwrapKey(keychain: OsKeychain, wrappedFile: string): Buffer {
  let key: Buffer
  try {
    key = Buffer.from(keychain.decryptString(readFileSync(wrappedFile)), 'base64')
  } catch (err) {
    throw fail(
      `Unwrapping the master key ${wrappedFile} with the OS keychain failed`,
      `the keychain refused it: it was wrapped by another user or machine, the keychain entry of OB Console was deleted, or the file is damaged (${(err as Error).message})`,
      'log in as the user who stored the keys; otherwise move the secrets directory aside and import the certificates and keys again',
      err,
    )
  }
  return checkLength(key, wrappedFile)
}

/** How the master key is protected: wrapped by the keychain, or in a 0600 file while the keychain is unavailable. */
function keychainProtection(keychain: OsKeychain, wrappedFile: string): ReturnType<MasterKeySource['protection']> {
  const problem = keychainUnavailable(keychain)
  if (problem && existsSync(wrappedFile))
    return {
      kind: 'os-keychain',
      detail: `wrapped by the OS keychain, but ${problem}: the secrets cannot be read until it is`,
    }
  if (problem)
    return {
      kind: 'key-file',
      detail: `${problem}; the master key is kept in a file readable by this user alone (0600) instead`,
    }
  const backend = keychain.getSelectedStorageBackend?.()
  return {
    kind: 'os-keychain',
    detail: `wrapped by the OS keychain${backend && backend !== 'unknown' ? ` (${backend})` : ''}`,
  }
}

/**
 * The desktop app's master key: wrapped by the OS keychain (Electron `safeStorage`: Keychain on macOS,
 * DPAPI on Windows, the Secret Service or KWallet on Linux) in `master.key.os`; the clear key never
 * touches the disk. A clear `master.key` left by an earlier version is migrated on first use: wrapped,
 * the wrapped copy read back and compared, then the clear file removed. When the keychain is not
 * available and no wrapped key exists, the key stays in a 0600 clear file (as for the web host and the
 * CLI) and `protection()` and the log say so; once a wrapped key exists, an unavailable keychain is an
 * error (the key is never silently replaced).
 */
export function keychainMasterKeySource(options: {
  dir: string
  keychain: OsKeychain
  log: (line: string) => void
}): MasterKeySource {
  const wrappedFile = join(options.dir, WRAPPED_KEY_FILE)
  const clearFile = join(options.dir, CLEAR_KEY_FILE)
  const { keychain, log } = options
  const unwrap = (): Buffer => unwrapKey(keychain, wrappedFile)
  const fallback = clearKeyFileSource(clearFile, '')
  let warned = false
  return {
    protection: () => keychainProtection(keychain, wrappedFile),
    load() {
      const problem = keychainUnavailable(keychain)
      if (existsSync(wrappedFile)) {
        if (problem)
          throw fail(
            'Opening the master key failed',
            `it is wrapped by the OS keychain, and ${problem}`,
            'start the keyring service (or log in to a desktop session that runs one) and open the console again',
          )
        const key = unwrap()
        const leftover = existsSync(clearFile) ? readClearKey(clearFile) : undefined
        if (leftover) {
          // A migration stopped between writing the wrapped copy and removing the clear one.
          if (!timingSafeEqual(leftover, key))
            throw fail(
              'Opening the master key failed',
              `both ${wrappedFile} and ${clearFile} exist and hold different keys`,
              `keep the one the secrets were written with: move ${clearFile} aside and try again; if secrets do not decrypt, put it back and move ${wrappedFile} aside instead`,
            )
          rmSync(clearFile, { force: true })
          log(`OB Console: removed the clear master key ${clearFile}; the OS keychain wraps the key now.`)
        }
        return key
      }
      if (problem) {
        if (!warned) {
          warned = true
          log(
            `OB Console: ${problem}; the secret store's master key stays in ${clearFile}, readable by this user alone (0600). Start a keyring service to have it wrapped by the OS keychain.`,
          )
        }
        return fallback.load()
      }
      const existing = readClearKey(clearFile)
      const key = existing ?? randomBytes(MASTER_KEY_BYTES)
      writePrivate(wrappedFile, keychain.encryptString(key.toString('base64')))
      const back = unwrap()
      if (!timingSafeEqual(back, key)) {
        rmSync(wrappedFile, { force: true })
        throw fail(
          'Wrapping the master key with the OS keychain failed',
          'the wrapped copy read back differs from the key',
          'try again; if it persists, report it (the clear key file is kept meanwhile)',
        )
      }
      if (existing) {
        rmSync(clearFile, { force: true })
        log(
          `OB Console: the secret store's master key is now wrapped by the OS keychain (${WRAPPED_KEY_FILE}); the clear copy ${clearFile} was removed.`,
        )
      }
      return key
    },
  }
}
