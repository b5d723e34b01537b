import { createHash } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { AppError } from '../../core/app-error.ts'
import { deepFreeze, fileVersion } from './file-version.ts'
import { recordProblems, recordValidator } from './record-validators.ts'
import type { ClientRecord } from './settings-schema.ts'
import type { SettingsStore } from './settings-store.ts'
import { writeFileAtomic } from '../../plumbing/atomic-file.ts'

/**
 * The registered clients, one file each in a directory (`<data dir>/store/clients/<hash of the client
 * id>.json`), so registering a client writes a few kilobytes, not a settings document that grows with
 * every client ever registered (every registration and every settings change rewrote it whole).
 */
export interface ClientStore {
  /** Every client, in the order they were registered. Records are frozen (shared by every reader). */
  list(): readonly ClientRecord[]
  get(clientId: string): ClientRecord | undefined
  /** Validates and writes the record (atomically: a temporary file, fsync, rename) before returning. */
  put(record: ClientRecord): void
  delete(clientId: string): void
  /** The directory of the files. */
  readonly dir: string
}

/** Whether `value` is a client record (the validator built ahead, record-validators.ts). */
const validate = (value: unknown): value is ClientRecord => recordValidator('client')(value) as boolean
const problems = () => recordProblems(recordValidator('client').errors)

/**
 * A client file the store cannot take: left where it is (never skipped, overwritten or deleted), and no
 * client is read until it is mended or moved out of the directory.
 */
function damagedFile(path: string, dir: string, what: string, cause: string): AppError {
  return new AppError('STORE_ERROR', {
    what,
    cause,
    fix: `The console left ${path} as it was and reads no client until it is mended: fix it by hand, or move it out of ${dir} (the console reads only the .json files there) and register that client again`,
    details: { path },
  })
}

const fileName = (clientId: string) => `${createHash('sha256').update(clientId).digest('hex').slice(0, 32)}.json`

const byRegistration = (a: ClientRecord, b: ClientRecord) =>
  a.registeredAt < b.registeredAt ? -1 : a.registeredAt > b.registeredAt ? 1 : a.clientId < b.clientId ? -1 : 1

/**
 * The client store in `dir`, read once per version of the directory (one `stat` per read; a file is
 * parsed again only when it changed), so another process's registration is seen at the next read. A file
 * that is not a valid client record is never skipped or overwritten in silence: reading fails naming it.
 *
 * `migrateFrom`: clients an earlier version kept in the settings document are moved here on open (each
 * written before the settings key is emptied, so a crash in between loses nothing).
 */
export function createFileClientStore(dir: string, options: { migrateFrom?: SettingsStore } = {}): ClientStore {
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  let dirStamp: string | undefined
  let files = new Map<string, { stamp: string; record: ClientRecord }>()
  let sorted: readonly ClientRecord[] = []
  const sort = () => {
    sorted = Object.freeze([...files.values()].map((f) => f.record).sort(byRegistration))
  }

  const read = (name: string): ClientRecord => {
    const path = join(dir, name)
    let value: unknown
    try {
      value = JSON.parse(readFileSync(path, 'utf8'))
    } catch (err) {
      const cause = err instanceof SyntaxError ? `it is not JSON (${err.message})` : (err as Error).message
      throw damagedFile(path, dir, `The client file ${path} could not be read`, cause)
    }
    if (!validate(value)) {
      throw damagedFile(path, dir, `The client file ${path} is not a client record`, problems())
    }
    return deepFreeze(value as ClientRecord)
  }

  /** The records as on disk now. */
  const current = (): readonly ClientRecord[] => {
    const now = fileVersion(dir)
    if (now === dirStamp) return sorted
    const next = new Map<string, { stamp: string; record: ClientRecord }>()
    for (const name of readdirSync(dir)) {
      if (!name.endsWith('.json')) continue
      const stamp = fileVersion(join(dir, name))
      if (!stamp) continue
      const known = files.get(name)
      next.set(name, known && known.stamp === stamp ? known : { stamp, record: read(name) })
    }
    files = next
    sort()
    dirStamp = now
    return sorted
  }

  /**
   * After this store's own change (made just after `current()` read the directory): its record is known,
   * and so is the directory's new version, so the next read needs no scan.
   */
  const changed = (name: string, entry: { stamp: string; record: ClientRecord } | undefined) => {
    if (entry) files.set(name, entry)
    else files.delete(name)
    sort()
    dirStamp = fileVersion(dir)
  }

  const store: ClientStore = {
    dir,
    list: () => current(),
    get: (clientId) => current().find((c) => c.clientId === clientId),
    put(record) {
      if (!validate(record as unknown)) {
        throw new AppError('STORE_ERROR', {
          what: `The client ${String((record as { clientId?: unknown })?.clientId)} was not saved`,
          cause: problems(),
          fix: 'This is a console bug: report it with the registration response',
        })
      }
      current()
      const name = fileName(record.clientId)
      const path = join(dir, name)
      writeFileAtomic(path, `${JSON.stringify(record, null, '\t')}\n`, { mode: 0o600, backup: false })
      changed(name, { stamp: fileVersion(path) ?? '', record: deepFreeze(record) })
    },
    delete(clientId) {
      current()
      const name = fileName(clientId)
      rmSync(join(dir, name), { force: true })
      changed(name, undefined)
    },
  }

  const legacy = options.migrateFrom?.get('clients') ?? []
  if (legacy.length) {
    for (const record of legacy) if (!store.get(record.clientId)) store.put({ ...record })
    options.migrateFrom!.set('clients', [])
  }
  return store
}
