import { spawnSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

const REPO = resolve(import.meta.dirname, '../../..')
const temps: string[] = []
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true })
})

/** A copy of the package with only the given parts (node_modules linked), to see what the bin needs. */
function install(parts: { out?: boolean; sources?: boolean; modules?: boolean }): string {
  const dir = mkdtempSync(join(tmpdir(), 'ob-bin-'))
  temps.push(dir)
  mkdirSync(join(dir, 'bin'))
  cpSync(join(REPO, 'bin', 'ob-console.js'), join(dir, 'bin', 'ob-console.js'))
  cpSync(join(REPO, 'package.json'), join(dir, 'package.json'))
  if (parts.modules !== false) symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'))
  symlinkSync(join(REPO, 'resources'), join(dir, 'resources'))
  if (parts.out) cpSync(join(REPO, 'out', 'cli'), join(dir, 'out', 'cli'), { recursive: true })
  if (parts.sources) symlinkSync(join(REPO, 'src-main'), join(dir, 'src-main'))
  return dir
}

function run(dir: string, args: string[], env: Record<string, string> = {}) {
  return spawnSync(process.execPath, [join(dir, 'bin', 'ob-console.js'), ...args], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout: 60_000,
  })
}

describe('bin/ob-console.js', () => {
  it('runs the built command line in out/cli, with no TypeScript sources beside it', () => {
    const dir = install({ out: true })
    const help = run(dir, ['help'])
    expect(help.status).toBe(0)
    expect(help.stderr).toBe('')
    expect(help.stdout).toContain('ob-console sandbox [--port N] [--data-dir DIR] [--fresh]')
    const jwt = run(dir, ['jwt', 'decode', 'not-a-jwt'])
    expect(jwt.status).not.toBe(0)
    expect(jwt.stderr).toMatch(/^ob-console: /)
  })

  it('without out/cli, says so in one line and runs the sources through tsx', () => {
    const dir = install({ sources: true })
    const help = run(dir, ['help'])
    expect(help.status).toBe(0)
    expect(help.stderr).toBe(
      'ob-console: out/cli is not built (run "npm run build:cli"); running the TypeScript sources, which starts slower.\n',
    )
    expect(help.stdout).toContain('ob-console help')
  })

  it('with neither out/cli nor tsx (a development dependency) installed, says how to get one and exits 1', () => {
    const dir = install({ sources: true, modules: false })
    const help = run(dir, ['help'])
    expect(help.status).toBe(1)
    expect(help.stdout).toBe('')
    expect(help.stderr).toBe(
      'ob-console: out/cli is not built (run "npm run build:cli"); running the TypeScript sources, which starts slower.\n' +
        'ob-console: neither out/cli nor tsx is installed, so the command line cannot run: run "npm ci" in the clone (it builds out/cli), or "npm run build:cli".\n',
    )
  })

  it('OB_CONSOLE_FROM_SOURCE=1 runs the sources even when out/cli is built, without the notice', () => {
    const dir = install({ out: true, sources: true })
    const help = run(dir, ['--help'], { OB_CONSOLE_FROM_SOURCE: '1' })
    expect(help.status).toBe(0)
    expect(help.stderr).toBe('')
    expect(help.stdout).toContain('ob-console help')
  })
})
