import { mkdirSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { JsonFile } from '../store/json-file.ts'
import { SOFTWARE_ID_PATTERN } from './onboard-input.ts'
import type { SoftwareStatementRecord } from './types.ts'

interface CacheEntry {
  ino: number
  mtimeMs: number
  size: number
  record: SoftwareStatementRecord
}

/**
 * The directory's TPPs on disk: one JSON file per software statement, `<directory>/tpps/<softwareId>.json`,
 * holding public parts only (no private key). Every read checks the file's mtime, so a TPP onboarded or
 * changed by another process on the same data directory is seen at once; unchanged files (same inode,
 * mtime and size: writes replace the file by rename) come from a small cache.
 */
export class TppStore {
  readonly dir: string
  readonly #cache = new Map<string, CacheEntry>()

  constructor(directoryDir: string) {
    this.dir = join(directoryDir, 'tpps')
    mkdirSync(this.dir, { recursive: true, mode: 0o700 })
  }

  #file(softwareId: string): JsonFile<SoftwareStatementRecord | undefined> {
    return new JsonFile<SoftwareStatementRecord | undefined>(join(this.dir, `${softwareId}.json`), () => undefined)
  }

  /** The record, or undefined when the software id is unknown (or not a software id at all). Throws when the file is corrupt. */
  get(softwareId: string): SoftwareStatementRecord | undefined {
    if (!SOFTWARE_ID_PATTERN.test(softwareId)) return undefined
    const file = this.#file(softwareId)
    let stat
    try {
      stat = statSync(file.path)
    } catch {
      this.#cache.delete(softwareId)
      return undefined
    }
    const cached = this.#cache.get(softwareId)
    if (cached && cached.ino === stat.ino && cached.mtimeMs === stat.mtimeMs && cached.size === stat.size) return cached.record
    const record = file.read()
    if (!record || record.softwareId !== softwareId) throw new Error(`${file.path} does not hold the software statement ${softwareId}; fix or delete the file`)
    this.#cache.set(softwareId, { ino: stat.ino, mtimeMs: stat.mtimeMs, size: stat.size, record })
    return record
  }

  put(record: SoftwareStatementRecord): void {
    this.#file(record.softwareId).write(record)
    this.#cache.delete(record.softwareId)
  }

  /** Every software statement in the directory (files that cannot be read are skipped and reported to `onError`). */
  all(onError: (message: string) => void = () => {}): SoftwareStatementRecord[] {
    const out: SoftwareStatementRecord[] = []
    for (const name of readdirSync(this.dir)) {
      const m = /^([0-9A-Za-z]{1,22})\.json$/.exec(name)
      if (!m) continue
      try {
        const record = this.get(m[1]!)
        if (record) out.push(record)
      } catch (err) {
        onError((err as Error).message)
      }
    }
    return out
  }

  /** The software statements of one organisation. */
  byOrg(orgId: string, onError?: (message: string) => void): SoftwareStatementRecord[] {
    return this.all(onError).filter((r) => r.orgId === orgId)
  }
}
