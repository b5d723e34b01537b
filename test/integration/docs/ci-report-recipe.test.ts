import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'

const REPO = resolve(import.meta.dirname, '../../..')
const temps: string[] = []
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true })
})

/** The sh block of "### The report in CI" in docs/local-sandbox.md, with "your tests" (its two comment lines) run by a script. */
function recipe(): string {
  const doc = readFileSync(join(REPO, 'docs/local-sandbox.md'), 'utf8')
  const at = doc.indexOf('\n### The report in CI\n')
  if (at < 0) throw new Error('docs/local-sandbox.md has no "### The report in CI" section')
  const block = /```sh\n([\s\S]*?)```/.exec(doc.slice(at))![1]!
  const tests = /^# … your tests:.*\n#.*client-id …\n/m
  if (!tests.test(block)) throw new Error('the block has no "# … your tests" lines to run the client at')
  const loader = pathToFileURL(join(REPO, 'node_modules/tsx/dist/loader.mjs')).href
  return block.replace(tests, `node --import ${loader} ${join(REPO, 'test/integration/docs/support/ci-client.mts')}\n`)
}

describe("the conformance report's CI block of docs/local-sandbox.md", () => {
  it('runs as written: the report is printed, the job exits 1 for the missing interaction id, no sandbox is left running', () => {
    const project = mkdtempSync(join(tmpdir(), 'ob-ci-report-'))
    temps.push(project)
    mkdirSync(join(project, 'node_modules', '.bin'), { recursive: true })
    symlinkSync(join(REPO, 'bin', 'ob-console.js'), join(project, 'node_modules', '.bin', 'ob-console'))
    const runnerTemp = join(project, 'runner-temp')
    mkdirSync(runnerTemp)
    const r = spawnSync('bash', ['-c', recipe()], {
      cwd: project,
      env: { ...process.env, RUNNER_TEMP: runnerTemp },
      encoding: 'utf8',
      timeout: 150_000,
    })
    expect(r.status, r.stderr).toBe(1)
    const clientId = readFileSync(join(runnerTemp, 'client-id'), 'utf8')
    expect(r.stdout).toContain(`Conformance report of client ${clientId}: 1 rule(s) failed (2 request(s)`)
    expect(r.stdout).toMatch(/✗ interaction-id\s+passed\s+1\s+failed\s+1/)
    expect(r.stdout).toContain('no x-fapi-interaction-id was sent')
    expect(r.stdout).toMatch(/✓ schema\.request-body\s+passed\s+2\s+failed\s+0/)
    const line = JSON.parse(readFileSync(join(runnerTemp, 'sandbox.out'), 'utf8').split('\n')[0]!) as { pid: number }
    expect(() => process.kill(line.pid, 0)).toThrow()
    expect(existsSync(join(runnerTemp, 'ob-sandbox', 'state', 'running.json'))).toBe(false)
  }, 180_000)
})
