import path from 'node:path'
import { Linter } from 'eslint'
import tseslint from 'typescript-eslint'
import { describe, expect, it } from 'vitest'
// @ts-expect-error: the rule is plain JavaScript without type declarations
import { errorTypeRule } from '../../../eslint/error-type-rule.js'

const ROOT = path.resolve(import.meta.dirname, '../../..')
const linter = new Linter({ configType: 'flat', cwd: ROOT })
const config = [
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: { parser: tseslint.parser, ecmaVersion: 'latest' as const, sourceType: 'module' as const },
    plugins: { ob: { rules: { 'one-error-type': errorTypeRule } } },
    rules: { 'ob/one-error-type': 'error' as const },
  },
]

/** The rule's messages for `code` written in the file at `file` (relative to the repository root). */
function breaches(code: string, file = 'src-main/services/persistence/client-store.ts'): string[] {
  const messages = linter.verify(code, config, { filename: path.join(ROOT, file) })
  const fatal = messages.filter((m) => m.fatal)
  if (fatal.length > 0) throw new Error(`the test code did not parse: ${fatal[0]!.message}`)
  return messages.filter((m) => m.ruleId === 'ob/one-error-type').map((m) => m.message)
}

describe('one error type: what it forbids', () => {
  it('forbids Object.assign onto a new Error, however wrapped, in src-main and src-renderer', () => {
    const code = `export const e = Object.assign(new Error('x'), { code: 'STORE_ERROR', what: 'w', cause: 'c', fix: 'f' })`
    expect(breaches(code)).toEqual([expect.stringContaining('Throw an AppError')])
    expect(breaches(`throw Object.assign(new TypeError('x') as Error, { code: 'X' })`)).toHaveLength(1)
    expect(breaches(code, 'src-renderer/store/store.ts')).toHaveLength(1)
    expect(breaches(code, 'src-main/cli/serve-command.ts')).toHaveLength(1)
  })

  it('forbids giving a code to an Error held in a variable, by assignment or Object.assign', () => {
    expect(breaches(`const e = new Error('x'); e.code = 'STORE_ERROR'; throw e`)).toHaveLength(1)
    expect(breaches(`const e = new Error('x'); (e as { code?: string }).code = 'X'; throw e`)).toHaveLength(1)
    expect(breaches(`const e = new Error('x'); (e as any)['code'] = 'X'; throw e`)).toHaveLength(1)
    expect(breaches(`let e = new Error('x'); Object.assign(e, { code: 'X' }); throw e`)).toHaveLength(1)
    expect(breaches(`const e = new Error('x'); Object.defineProperty(e, 'code', { value: 'X' })`)).toHaveLength(1)
  })

  it('forbids throwing a plain object with a code', () => {
    expect(breaches(`throw { code: 'STORE_ERROR', what: 'w', cause: 'c', fix: 'f' }`)).toEqual([
      expect.stringContaining('not a plain object with a code'),
    ])
  })

  it('forbids a second error class with a code of its own', () => {
    expect(breaches(`export class StoreError extends Error { code = 'STORE_ERROR' }`)).toHaveLength(1)
    expect(
      breaches(`export class StoreError extends Error { constructor(readonly code: string) { super(code) } }`),
    ).toHaveLength(1)
    expect(
      breaches(
        `export class StoreError extends Error { constructor(c: string) { super(c); this.code = c } code = '' }`,
      ),
    ).toHaveLength(1)
  })
})

describe('one error type: what it leaves alone', () => {
  it('lets code throw an AppError, and plain errors without a code (caught and explained where they are)', () => {
    expect(
      breaches(
        `import { AppError } from '../../core/app-error.ts'\nthrow new AppError('STORE_ERROR', { what: 'w', cause: 'c', fix: 'f' })`,
      ),
    ).toEqual([])
    expect(breaches(`throw new Error('its header is not a JSON object')`)).toEqual([])
    expect(breaches(`throw new Error('x', { cause: new Error('y') })`)).toEqual([])
    expect(breaches(`export class Stop extends Error { constructor(readonly fix: string) { super(fix) } }`)).toEqual([])
    // Other objects keep their codes: a result, a DTO, a record.
    expect(breaches(`const r = { code: 'X' }; r.code = 'Y'; Object.assign({}, { code: 'Z' })`)).toEqual([])
    expect(breaches(`function f(err: { code: string }) { err.code = 'X' }`)).toEqual([])
  })

  it('lets the local sandbox keep its own errors, and app-error.ts define the one type', () => {
    const code = `export const e = Object.assign(new Error('x'), { code: 'X' })`
    expect(breaches(code, 'src-main/local-sandbox/store/json-file.ts')).toEqual([])
    expect(
      breaches(
        `export class AppError extends Error { readonly code: string; constructor(c: string) { super(c); this.code = c } }`,
        'src-main/core/app-error.ts',
      ),
    ).toEqual([])
  })

  it('checks only src-main and src-renderer (tests and scripts make errors as they need)', () => {
    const code = `export const e = Object.assign(new Error('x'), { code: 'ECONNREFUSED' })`
    expect(breaches(code, 'test/unit/core/thrown-error.test.ts')).toEqual([])
    expect(breaches(code, 'test/bench/ui/processes.ts')).toEqual([])
  })
})
