import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

const REPO = resolve(import.meta.dirname, '../../..')
const temps: string[] = []
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true })
})

/** The first sh block after the heading `## In CI` of docs/local-sandbox.md, as written. */
function recipe(): string {
  const doc = readFileSync(join(REPO, 'docs/local-sandbox.md'), 'utf8')
  const section = doc.slice(doc.indexOf('\n## In CI\n'))
  const block = /```sh\n([\s\S]*?)```/.exec(section)
  if (!block || !doc.includes('\n## In CI\n'))
    throw new Error('docs/local-sandbox.md has no "## In CI" section with an sh block')
  return block[1]!
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

describe('the CI recipe of docs/local-sandbox.md', () => {
  it('runs as pasted in a project that installed ob-console: the sandbox starts, a kit is issued, the sandbox stops and wait returns 0', () => {
    const project = mkdtempSync(join(tmpdir(), 'ob-ci-project-'))
    temps.push(project)
    // A TPP's project after `npm install ob-console`: the bin linked in node_modules/.bin.
    mkdirSync(join(project, 'node_modules', '.bin'), { recursive: true })
    symlinkSync(join(REPO, 'bin', 'ob-console.js'), join(project, 'node_modules', '.bin', 'ob-console'))
    const runnerTemp = join(project, 'runner-temp')
    mkdirSync(runnerTemp)

    const r = spawnSync('bash', ['-c', recipe()], {
      cwd: project,
      env: { ...process.env, RUNNER_TEMP: runnerTemp },
      encoding: 'utf8',
      timeout: 120_000,
    })
    expect(r.stderr).not.toMatch(/Error|rror:/)
    expect(r.status).toBe(0)

    const line = JSON.parse(readFileSync(join(runnerTemp, 'sandbox.out'), 'utf8').split('\n')[0]!) as {
      pid: number
      dataDir: string
    }
    expect(line.dataDir).toBe(join(runnerTemp, 'ob-sandbox'))
    expect(alive(line.pid)).toBe(false)
    expect(existsSync(join(runnerTemp, 'ob-sandbox', 'state', 'running.json'))).toBe(false)
    expect(JSON.parse(readFileSync(join(runnerTemp, 'tpp-kit', 'manifest.json'), 'utf8')).roles).toEqual([
      'AISP',
      'PISP',
    ])
    // Nothing written into the project's working tree but what the test made.
    expect(spawnSync('ls', ['-A', project], { encoding: 'utf8' }).stdout.trim().split('\n').sort()).toEqual([
      'node_modules',
      'runner-temp',
    ])
  }, 150_000)
})

describe('example paths in the README and docs', () => {
  it('every folder the docs give to --data-dir or --issue-tpp (inside the repository) is ignored by git', () => {
    const files = [
      'README.md',
      ...spawnSync('git', ['ls-files', 'docs'], { cwd: REPO, encoding: 'utf8' })
        .stdout.trim()
        .split('\n')
        .filter((f) => f.endsWith('.md')),
    ]
    const paths = new Set<string>()
    for (const f of files) {
      const text = readFileSync(join(REPO, f), 'utf8')
      for (const m of text.matchAll(/--(?:data-dir|issue-tpp)[ =](\.\/[^\s`'")]+)/g)) paths.add(m[1]!)
    }
    expect(paths.size).toBeGreaterThan(0)
    for (const p of paths) {
      const r = spawnSync('git', ['check-ignore', '-q', '--no-index', join(p, 'signing.key')], { cwd: REPO })
      expect({ path: p, ignored: r.status === 0 }).toEqual({ path: p, ignored: true })
    }
  })
})
