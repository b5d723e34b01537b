import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { appDataDir, ensureDataDir } from '../../../src-main/core/paths.ts'

const tmp = mkdtempSync(join(tmpdir(), 'ob-paths-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

describe('appDataDir', () => {
  it('prefers $OB_CONSOLE_DATA_DIR', () => {
    expect(appDataDir({ OB_CONSOLE_DATA_DIR: '/x/y' }, 'linux', '/home/u')).toBe('/x/y')
  })
  it('follows each platform convention', () => {
    expect(appDataDir({}, 'linux', '/home/u')).toBe('/home/u/.local/share/ob-console')
    expect(appDataDir({ XDG_DATA_HOME: '/data' }, 'linux', '/home/u')).toBe('/data/ob-console')
    expect(appDataDir({}, 'darwin', '/Users/u')).toBe('/Users/u/Library/Application Support/ob-console')
    expect(appDataDir({ APPDATA: 'C:/Users/u/AppData/Roaming' }, 'win32', 'C:/Users/u')).toBe(
      join('C:/Users/u/AppData/Roaming', 'ob-console'),
    )
  })
})

describe('ensureDataDir', () => {
  it('creates the layout with a secrets directory readable by the user alone', () => {
    const layout = ensureDataDir(join(tmp, 'data'))
    for (const dir of [layout.root, layout.secrets, layout.store, layout.logs])
      expect(statSync(dir).isDirectory()).toBe(true)
    expect(statSync(layout.secrets).mode & 0o777).toBe(0o700)
    // Idempotent.
    expect(ensureDataDir(join(tmp, 'data'))).toEqual(layout)
  })
})
