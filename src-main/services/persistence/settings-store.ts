import Conf from 'conf'
import { SETTINGS_SCHEMA, type SettingsDocument } from './settings-schema.ts'

/**
 * The port the services persist through. electron-store implements it in the app (the shell passes one
 * in); `createFileSettingsStore` implements it with conf, the engine under electron-store, so Node, the
 * web host and tests write the same file with the same schema.
 */
export interface SettingsStore {
  get<K extends keyof SettingsDocument>(key: K): SettingsDocument[K]
  set<K extends keyof SettingsDocument>(key: K, value: SettingsDocument[K]): void
  /** The file it writes. */
  readonly path: string
}

/** Options shared by conf and electron-store, so both validate the same document. */
export const SETTINGS_STORE_OPTIONS = {
  configName: 'ob-console',
  schema: SETTINGS_SCHEMA as unknown as Record<string, unknown>,
  clearInvalidConfig: false,
} as const

/**
 * A settings store in `dir` (`ob-console.json`), validated against the schema on every write. A file that
 * does not match the schema is never silently cleared: opening it fails with the path, so nothing is lost.
 */
export function createFileSettingsStore(dir: string): SettingsStore {
  try {
    const conf = new Conf<SettingsDocument>({ ...SETTINGS_STORE_OPTIONS, cwd: dir, projectName: 'ob-console', schema: SETTINGS_SCHEMA as never })
    return {
      get: (key) => conf.get(key),
      set: (key, value) => conf.set(key, value),
      path: conf.path,
    }
  } catch (err) {
    throw Object.assign(new Error(`cannot open the console settings in ${dir}: ${(err as Error).message}`), {
      code: 'STORE_ERROR',
      what: `The console's settings file in ${dir} could not be opened.`,
      cause: (err as Error).message,
      fix: 'Fix the JSON by hand or move the file aside (the console never overwrites an unreadable settings file).',
    })
  }
}
