import { randomBytes } from 'node:crypto'
import {
  chmodSync,
  closeSync,
  copyFileSync,
  existsSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs'
import { mkdir, open, rename, rm } from 'node:fs/promises'
import { dirname } from 'node:path'

/** The backup of `path`: its previous version, kept by every atomic write. */
export const backupPath = (path: string): string => `${path}.bak`

function fsyncPath(path: string, flags: string): void {
  let fd: number | undefined
  try {
    fd = openSync(path, flags)
    fsyncSync(fd)
  } catch {
    // A directory cannot be opened or synced on some systems (Windows); the rename is still atomic there.
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}

/**
 * Writes a file so that, whenever the process dies (killed, power cut after the call returned), `path`
 * holds either its previous content or the new one, whole, and `path.bak` the version before:
 * 1. the new content goes to a temporary file in the same directory, flushed to disk (fsync);
 * 2. the current file, if any, becomes the backup (a hard link renamed over `path.bak`: no copy, atomic);
 * 3. the temporary file is renamed over `path` (atomic on one file system), and the directory is flushed.
 * `mode`: the file's permissions (0600 by default: these files hold key material or identities); `backup:
 * false` skips step 2 (a file that needs no previous version, such as the local sandbox's).
 * Plumbing: the console's stores and the local sandbox's files are written by this one function.
 *
 * @example writeFileAtomic(join(store, 'identities.json'), JSON.stringify(doc))
 */
export function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  options: { mode?: number; backup?: boolean } = {},
): void {
  const mode = options.mode ?? 0o600
  const dir = dirname(path)
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
  try {
    const fd = openSync(tmp, 'w', mode)
    try {
      const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data
      let at = 0
      while (at < bytes.length) at += writeSync(fd, bytes, at, bytes.length - at)
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
    if (process.platform !== 'win32') chmodSync(tmp, mode)
    if (options.backup !== false && existsSync(path)) keepBackup(path)
    renameSync(tmp, path)
  } catch (err) {
    rmSync(tmp, { force: true })
    throw err
  }
  fsyncPath(dir, 'r')
}

/**
 * writeFileAtomic without a backup, off the event loop: the same steps (a temporary file flushed to disk,
 * renamed over `path`, the directory flushed) on libuv's threads, for a store that writes behind the work
 * it records (the flow history), so no step waits for the disk.
 */
export async function writeFileAtomicAsync(path: string, data: string, options: { mode?: number } = {}): Promise<void> {
  const mode = options.mode ?? 0o600
  const dir = dirname(path)
  await mkdir(dir, { recursive: true, mode: 0o700 })
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
  try {
    const file = await open(tmp, 'w', mode)
    try {
      await file.writeFile(data, 'utf8')
      await file.sync()
      if (process.platform !== 'win32') await file.chmod(mode)
    } finally {
      await file.close()
    }
    await rename(tmp, path)
  } catch (err) {
    await rm(tmp, { force: true })
    throw err
  }
  const d = await open(dir, 'r').catch(() => undefined)
  // A directory cannot be opened or synced on some systems (Windows); the rename is still atomic there.
  await d?.sync().catch(() => undefined)
  await d?.close()
}

/** The current version of `path` becomes `path.bak` (atomically: the old backup stays until the new one is whole). */
function keepBackup(path: string): void {
  const tmp = `${backupPath(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
  try {
    linkSync(path, tmp)
  } catch {
    // No hard links here (some file systems): a copy, flushed, does the same job.
    copyFileSync(path, tmp)
    fsyncPath(tmp, 'r+')
  }
  renameSync(tmp, backupPath(path))
}

/**
 * Reads `path` with `parse`, falling back to its backup when the file is missing or `parse` throws
 * (a file damaged outside the console, or one written by a version without atomic writes). Undefined when
 * neither exists. When both exist and neither parses, the main file's error is thrown.
 *
 * @example const doc = readFileWithBackup(file, (bytes) => JSON.parse(bytes.toString('utf8')))
 */
export function readFileWithBackup<T>(
  path: string,
  parse: (bytes: Buffer) => T,
): { value: T; from: 'file' | 'backup' } | undefined {
  let failure: unknown
  for (const [candidate, from] of [
    [path, 'file'],
    [backupPath(path), 'backup'],
  ] as const) {
    let bytes: Buffer
    try {
      bytes = readFileSync(candidate)
    } catch (err) {
      if ((err as { code?: string }).code === 'ENOENT') continue
      failure ??= err
      continue
    }
    try {
      return { value: parse(bytes), from }
    } catch (err) {
      failure ??= err
    }
  }
  if (failure !== undefined) throw failure
  return undefined
}

/** Removes `path` and its backup; true when `path` existed. */
export function removeWithBackup(path: string): boolean {
  rmSync(backupPath(path), { force: true })
  try {
    rmSync(path)
    return true
  } catch (err) {
    if ((err as { code?: string }).code === 'ENOENT') return false
    throw err
  }
}
