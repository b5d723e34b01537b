/**
 * The bin turns on Node's compile cache (Node 22.1 and later) in the user's cache folder. A unit test so that
 * CI's second pass, the unit tests on Node 24, runs it: on Node 20, which has no compile cache, it is skipped.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import module from 'node:module'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

const BIN = resolve(import.meta.dirname, '../../../bin/ob-console.js')
const hasCompileCache = typeof (module as { enableCompileCache?: unknown }).enableCompileCache === 'function'
const cache = mkdtempSync(join(tmpdir(), 'ob-bin-cache-'))
afterAll(() => rmSync(cache, { recursive: true, force: true }))

function help(env: Record<string, string>) {
  const inherited = { ...process.env }
  delete inherited.NODE_DISABLE_COMPILE_CACHE
  return spawnSync(process.execPath, [BIN, 'help'], {
    encoding: 'utf8',
    env: { ...inherited, ...env },
    timeout: 60_000,
  })
}

describe('bin/ob-console.js and the compile cache', () => {
  it.skipIf(!hasCompileCache)(
    'keeps the compiled modules in the user cache folder, unless NODE_DISABLE_COMPILE_CACHE is set',
    () => {
      const folder = join(cache, 'ob-console', 'compile-cache')
      const off = help({ XDG_CACHE_HOME: cache, NODE_DISABLE_COMPILE_CACHE: '1' })
      expect(off.status).toBe(0)
      expect(existsSync(folder)).toBe(false)
      const on = help({ XDG_CACHE_HOME: cache })
      expect(on.status).toBe(0)
      expect(on.stdout).toContain('ob-console help')
      expect(readdirSync(folder, { recursive: true }).length).toBeGreaterThan(0)
    },
  )
})
