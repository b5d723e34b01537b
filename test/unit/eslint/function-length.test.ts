import path from 'node:path'
import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

const ROOT = path.resolve(import.meta.dirname, '../../..')
const eslint = new ESLint({ cwd: ROOT })

/** A function of `lines` statements and four more lines (and as many blank and comment lines, which do not count). */
function source(lines: number): string {
  const body = Array.from({ length: lines }, (_, i) => `  total += ${i}\n\n  // step ${i}`).join('\n')
  return `export function long(): number {\n  let total = 0\n${body}\n  return total\n}\n`
}

/** The function-length messages the repository's own lint configuration gives `text` written at `file`. */
async function tooLong(file: string, text: string): Promise<string[]> {
  const [result] = await eslint.lintText(text, { filePath: path.join(ROOT, file) })
  return result!.messages.filter((m) => m.ruleId === 'max-lines-per-function').map((m) => m.message)
}

describe('the lint rule that keeps functions to a screen (eslint.config.js)', () => {
  it('refuses a function of more than 80 lines in src-main and src-renderer, blank lines and comments not counted', async () => {
    expect(await tooLong('src-main/services/example.ts', source(70))).toEqual([])
    expect(await tooLong('src-main/services/example.ts', source(85))).toEqual([
      "Function 'long' has too many lines (89). Maximum allowed is 80.",
    ])
    expect(await tooLong('src-renderer/features/example.tsx', source(85))).toHaveLength(1)
  }, 60_000)

  it('holds every file of src-main to it (no exceptions are listed), and leaves tests alone', async () => {
    expect(await tooLong('src-main/http/http-client.ts', source(85))).toHaveLength(1)
    expect(await tooLong('test/unit/example.test.ts', source(150))).toEqual([])
  }, 60_000)
})
