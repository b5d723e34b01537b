import { copyFileSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import Conf from 'conf'
import { AppError } from '../../core/app-error.ts'
import { deepFreeze, fileVersion } from './file-version.ts'
import { recordProblems, recordValidator } from './record-validators.ts'
import type { SettingsDocument } from './settings-schema.ts'

/**
 * The port the services persist through. electron-store implements it in the app (the shell passes one
 * in); `createFileSettingsStore` implements it with conf, the engine under electron-store, so Node, the
 * web host and tests write the same file with the same schema. Both go through `cachedSettingsStore`.
 */
export interface SettingsStore {
  get<K extends keyof SettingsDocument>(key: K): SettingsDocument[K]
  set<K extends keyof SettingsDocument>(key: K, value: SettingsDocument[K]): void
  /** The file it writes. */
  readonly path: string
}

/**
 * Options shared by conf and electron-store, so both write the same file. Neither is given the schema or
 * defaults: the store below validates the document with the validator built ahead (record-validators.ts; conf
 * compiled the schema with a new Ajv at every start, about 13 ms) and gives a missing key its `[]` in memory, and
 * nothing is written before a change (with defaults, conf would rewrite a file that does not match the schema
 * when it opens it).
 */
export const SETTINGS_STORE_OPTIONS = {
  configName: 'ob-console',
  clearInvalidConfig: false,
}

/** What the cache needs of conf (electron-store is a conf): the whole document, one key, the file. */
export interface ConfLike {
  store: SettingsDocument
  get<K extends keyof SettingsDocument>(key: K): SettingsDocument[K]
  set<K extends keyof SettingsDocument>(key: K, value: SettingsDocument[K]): void
  readonly path: string
}

/**
 * The settings file at `path` could not be read (not JSON, not the schema's, not readable). Nothing is
 * written over it: the fix names the file, and the version before the last write when there is one.
 */
export function unreadableSettings(path: string, err: unknown): AppError {
  const message = err instanceof Error ? err.message : String(err)
  const cause =
    err instanceof SyntaxError
      ? `it is not JSON (${message})`
      : err instanceof SchemaViolation
        ? `it does not match the settings schema (${message})`
        : message
  const backup = `${path}.bak`
  return new AppError('STORE_ERROR', {
    what: `The console's settings file ${path} could not be read`,
    cause,
    fix: `The console left it as it was and writes no setting until it is mended: fix it by hand, or move it aside (the console then starts with no environments or TPPs; registered clients are kept apart and stay)${existsSync(backup) ? `; the version before the last write is ${backup}: copy it over the file to go back to it` : ''}`,
    details: { path },
    source: err,
  })
}

/** A settings document that breaks the schema: its problems, each with where it is. */
class SchemaViolation extends Error {}

/** The document as the schema wants it (a missing top-level key gets its `[]`), or a SchemaViolation. */
function checked(doc: Record<string, unknown>): Record<string, unknown> {
  const validate = recordValidator('settings')
  if (!validate(doc)) throw new SchemaViolation(recordProblems(validate.errors))
  return doc
}

/** The file's version (`absent` when there is no file yet). */
const stampOf = (path: string): string => fileVersion(path) ?? 'absent'

/**
 * A settings store over conf or electron-store that reads the document once per version of the file
 * (inode, mtime and size; one `stat` per read): conf reads, parses and validates the whole file on every
 * `get`, and a flow reads its client, TPP and environment several times. Another process's write is seen
 * at the next read. Cached values are frozen (shared by every reader; a value handed to `set` is frozen
 * too, since it becomes the cached one).
 *
 * A write goes over the cached document when nobody else has written the file since it was read (conf
 * would read, parse and validate it twice more), and what was written becomes the cached document: the
 * write's own file version is the cache's, so the next read does not parse the file again. A file written
 * by someone else in between is read afresh by conf first, then written with the one key changed.
 */
export function cachedSettingsStore(conf: ConfLike): SettingsStore {
  let stamp = ''
  let doc: Record<string, unknown> | undefined
  /** The whole document as on disk now: read, parsed and validated once per version of the file. */
  const current = (): Record<string, unknown> => {
    const now = stampOf(conf.path)
    if (!doc || now !== stamp) {
      let read: Record<string, unknown>
      try {
        read = checked(conf.store as unknown as Record<string, unknown>)
      } catch (err) {
        doc = undefined
        throw unreadableSettings(conf.path, err)
      }
      stamp = now
      doc = deepFreeze(read)
    }
    return doc
  }
  /** The file as it is before a write, kept as `<file>.bak` (conf replaces the file atomically, without one). */
  const keepPrevious = () => {
    if (existsSync(conf.path)) copyFileSync(conf.path, `${conf.path}.bak`)
  }
  return {
    get(key) {
      const d = current()
      return (key in d ? d[key] : deepFreeze(conf.get(key))) as SettingsDocument[typeof key]
    },
    set(key, value) {
      // The file as on disk now, read first: a damaged file fails here, before the backup or the file is touched.
      const d = current()
      keepPrevious()
      // Validated first (a refused value leaves the cache and the file as they were), then written exactly.
      const next = { ...d, [key]: value }
      const validate = recordValidator('settings')
      if (!validate(next))
        throw new AppError('INTERNAL', {
          what: `The console's settings were not changed: the new ${key} breaks the settings schema.`,
          cause: recordProblems(validate.errors),
          fix: 'This is a bug of the console when it comes from a form it checked: report it with the value.',
        })
      doc = undefined
      conf.store = next as unknown as SettingsDocument
      stamp = stampOf(conf.path)
      doc = deepFreeze(next)
    },
    path: conf.path,
  }
}

/**
 * A settings store in `dir` (`ob-console.json`), validated against the schema on every read and write, the version
 * before each write kept as `ob-console.json.bak`. A file that does not match the schema is never silently
 * cleared: opening it fails with the path (and the backup's), so nothing is lost.
 */
const settingsPath = (dir: string) => join(dir, `${SETTINGS_STORE_OPTIONS.configName}.json`)

export function createFileSettingsStore(dir: string): SettingsStore {
  let conf: Conf<SettingsDocument>
  try {
    conf = new Conf<SettingsDocument>({
      ...SETTINGS_STORE_OPTIONS,
      cwd: dir,
      projectName: 'ob-console',
    })
  } catch (err) {
    throw unreadableSettings(settingsPath(dir), err)
  }
  return cachedSettingsStore(conf)
}
