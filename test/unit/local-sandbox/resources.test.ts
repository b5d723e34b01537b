import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { OPENAPI_DIR, RESOURCES_DIR, SEED_DIR, seedFile } from '../../../src-main/local-sandbox/resources.ts'

describe('resources', () => {
  it("finds the repository's resources/ from the sources", () => {
    expect(RESOURCES_DIR).toBe(resolve(import.meta.dirname, '../../../resources'))
    expect(existsSync(seedFile('psus.json'))).toBe(true)
    expect(existsSync(seedFile('products.json'))).toBe(true)
    expect(existsSync(seedFile('migrations'))).toBe(true)
    expect(existsSync(resolve(OPENAPI_DIR, 'account-info.json'))).toBe(true)
    expect(existsSync(resolve(OPENAPI_DIR, 'payment-initiation.json'))).toBe(true)
    expect(SEED_DIR).toBe(resolve(RESOURCES_DIR, 'local-sandbox'))
  })
})
