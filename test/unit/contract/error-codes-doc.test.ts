import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ERROR_CODE_DESCRIPTIONS, ERROR_CODES } from '../../../src-main/contract/errors.ts'
import { generatedSection } from '../../support/generated-doc.ts'

const ENGINE_MD = join(import.meta.dirname, '../../../docs/engine.md')

/** The table of docs/engine.md: one row per code of the contract, in its order, with its meaning. */
function errorCodeTable(): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|')
  return [
    `${ERROR_CODES.length} codes.`,
    '',
    '| Code | Meaning |',
    '|---|---|',
    ...ERROR_CODES.map((code) => `| \`${code}\` | ${cell(ERROR_CODE_DESCRIPTIONS[code])} |`),
  ].join('\n')
}

describe('the error codes of the contract', () => {
  it('each has a one-line meaning, a sentence', () => {
    for (const code of ERROR_CODES) {
      const meaning = ERROR_CODE_DESCRIPTIONS[code]
      expect(meaning, code).toMatch(/^[A-Z`].*\.$/)
      expect(meaning, code).not.toContain('\n')
    }
  })

  it('docs/engine.md lists them as generated (OB_UPDATE_DOCS=1 rewrites the table)', () => {
    const problem = generatedSection(ENGINE_MD, 'error-codes').check(errorCodeTable())
    expect(problem, problem).toBeUndefined()
  })
})
