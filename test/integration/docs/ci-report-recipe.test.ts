import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { REPO, runInTppProject, shBlockAfter } from './support/tpp-project.ts'

const temps: Array<() => void> = []
afterAll(() => {
  for (const remove of temps) remove()
})

/** The sh block of "### The report in CI" in docs/local-sandbox.md, with "your tests" (its two comment lines) run by a script. */
function recipe(): string {
  const block = shBlockAfter('docs/local-sandbox.md', '### The report in CI')
  const tests = /^# … your tests:.*\n#.*client-id …\n/m
  if (!tests.test(block)) throw new Error('the block has no "# … your tests" lines to run the client at')
  const loader = pathToFileURL(join(REPO, 'node_modules/tsx/dist/loader.mjs')).href
  return block.replace(tests, `node --import ${loader} ${join(REPO, 'test/integration/docs/support/ci-client.mts')}\n`)
}

describe("the conformance report's CI block of docs/local-sandbox.md", () => {
  it('runs as written: the report is printed, the job exits 1 for the missing interaction id, no sandbox is left running', () => {
    const { result: r, runnerTemp, remove } = runInTppProject(recipe(), 150_000)
    temps.push(remove)
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
