import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { outputFile } from '../../../src-main/cli/flags.ts'
import { isAppError } from '../../../src-main/core/app-error.ts'

const dir = mkdtempSync(join(tmpdir(), 'ob-flags-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function codeOf(f: () => void): string | undefined {
  try {
    f()
  } catch (err) {
    return isAppError(err) ? `${err.code}: ${err.what}` : String(err)
  }
  return undefined
}

describe('outputFile: an output file checked before the run starts, the flag named', () => {
  it('refuses a missing folder, a folder under a file, and a folder given as the file', () => {
    expect(codeOf(() => outputFile('postman', join(dir, 'missing', 'c.json')))).toMatch(
      /^FILE_NOT_FOUND: --postman .*missing\/c\.json: the folder .* does not exist/,
    )
    writeFileSync(join(dir, 'a-file'), '')
    expect(codeOf(() => outputFile('har', join(dir, 'a-file', 'x.har')))).toMatch(/^NOT_A_FILE: --har .* is a file/)
    expect(codeOf(() => outputFile('postman-env', dir))).toMatch(/^NOT_A_FILE: --postman-env .* is a folder/)
    expect(outputFile('curl', join(dir, 'ok.sh'))).toBe(join(dir, 'ok.sh'))
  })

  it.skipIf(process.getuid?.() === 0)('refuses a folder it may not write to', () => {
    const ro = join(dir, 'read-only')
    mkdirSync(ro)
    chmodSync(ro, 0o500)
    expect(codeOf(() => outputFile('postman', join(ro, 'c.json')))).toMatch(/^NOT_WRITABLE: .* is not writable/)
  })
})
