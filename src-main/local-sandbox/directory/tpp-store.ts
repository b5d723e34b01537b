import { mkdirSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { JsonFile } from '../store/json-file.ts'
import { SOFTWARE_ID_PATTERN } from './onboard-input.ts'
import type { SoftwareStatementRecord } from './types.ts'

interface CacheEntry {
  /** `performance.now()` when the file was last seen unchanged. */
  checkedAt: number
  ino: number
  mtimeMs: number
  size: number
  record: SoftwareStatementRecord
}

/**
 * How long a record read from disk is used without looking at its file again, ms. Every bearer request
 * looks up its client's software statement (for the client's keys), so a `stat` per lookup was a
 * measurable part of a data request; a change made by another process to a TPP this process has already
 * read is seen within this time. A TPP this process has not read yet (one onboarded by another process)
 * is always looked for on disk, so it is seen at once.
 */
export const TPP_RECHECK_MS = 1000

/**
 * The directory's TPPs on disk: one JSON file per software statement, `<directory>/tpps/<softwareId>.json`,
 * holding public parts only (no private key). A TPP onboarded by another process on the same data
 * directory is seen at once (an unknown software id is always looked for on disk); a record already read
 * is rechecked (inode, mtime and size of its file: writes replace the file by rename) at most every
 * TPP_RECHECK_MS, so a change made by another process is seen within that time, and one made through
 * this store at once.
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
    const cached = this.#cache.get(softwareId)
    const now = performance.now()
    if (cached && now - cached.checkedAt < TPP_RECHECK_MS) return cached.record
    const file = this.#file(softwareId)
    let stat
    try {
      stat = statSync(file.path)
    } catch {
      this.#cache.delete(softwareId)
      return undefined
    }
    if (cached && cached.ino === stat.ino && cached.mtimeMs === stat.mtimeMs && cached.size === stat.size) {
      cached.checkedAt = now
      return cached.record
    }
    const record = file.read()
    if (!record || record.softwareId !== softwareId)
      throw new Error(`${file.path} does not hold the software statement ${softwareId}; fix or delete the file`)
    this.#cache.set(softwareId, { checkedAt: now, ino: stat.ino, mtimeMs: stat.mtimeMs, size: stat.size, record })
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
