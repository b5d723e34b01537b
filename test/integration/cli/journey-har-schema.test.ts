/**
 * The HAR `ob-console ais --har FILE` writes is valid HAR 1.2 (schema of `har-validator`). The command runs
 * in-process from the sources (`runJourneyCommand`), with a fresh data directory, as `ob-console ais` does.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { runJourneyCommand } from '../../../src-main/cli/journey-command.ts'
import { harSchemaErrors } from '../../support/har-schema.ts'

const dir = mkdtempSync(join(tmpdir(), 'journey-har-schema-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('ob-console ais --har', () => {
  it('writes a HAR 1.2 document the schema accepts, with every exchange of the journey', async () => {
    const file = join(dir, 'ais.har')
    const out: string[] = []
    const err: string[] = []
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((c) => (out.push(String(c)), true))
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((c) => (err.push(String(c)), true))
    let code: number
    try {
      code = await runJourneyCommand('ais', ['--env', 'local', '--headless', '--json', '--har', file])
    } finally {
      stdout.mockRestore()
      stderr.mockRestore()
    }
    expect(code, err.join('').slice(-2000)).toBe(0)
    const har = JSON.parse(readFileSync(file, 'utf8')) as { log: { entries: unknown[] } }
    expect(har.log.entries.length).toBeGreaterThan(10)
    expect(err.join('')).toContain(`HAR written to ${file} (${har.log.entries.length} exchanges`)
    expect(await harSchemaErrors(har)).toEqual([])
  }, 180_000)
})
