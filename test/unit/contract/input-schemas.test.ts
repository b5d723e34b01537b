import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { CALL_NAMES } from '../../../src-main/contract/api.ts'
import { contractInputSchemasText, INPUT_SCHEMAS_FILE } from '../../../scripts/contract-input-schemas.ts'

describe("the contract's input schemas (src-main/contract/input-schemas.json)", () => {
  it('are what the types of src-main/contract/api.ts give today (npm run contract:schemas rewrites them)', () => {
    expect(readFileSync(INPUT_SCHEMAS_FILE, 'utf8')).toBe(contractInputSchemasText())
  }, 30_000)

  it('have one schema for every call the preload and the web host serve', () => {
    const doc = JSON.parse(readFileSync(INPUT_SCHEMAS_FILE, 'utf8')) as { calls: Record<string, unknown> }
    expect(Object.keys(doc.calls).sort()).toEqual([...CALL_NAMES].sort())
  })
})
