import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { REPO, runInTppProject, shBlockAfter } from './support/tpp-project.ts'

const temps: Array<() => void> = []
afterAll(() => {
  for (const remove of temps) remove()
})

/** The first sh block after the heading `## In CI` of docs/local-sandbox.md, as written. */
const recipe = () => shBlockAfter('docs/local-sandbox.md', '## In CI')

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
    // A TPP's project after `npm install ob-console`: the bin linked in node_modules/.bin.
    const { result: r, project, runnerTemp, remove } = runInTppProject(recipe(), 120_000)
    temps.push(remove)
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
