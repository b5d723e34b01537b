import { describe, expect, it } from 'vitest'
import { SANDBOX_USAGE, USAGE_SANDBOX_PORT } from '../../../src-main/cli/usage.ts'
import { DEFAULT_SANDBOX_PORT } from '../../../src-main/local-sandbox/index.ts'

describe('usage', () => {
  it("names the sandbox's own default port", () => {
    expect(USAGE_SANDBOX_PORT).toBe(DEFAULT_SANDBOX_PORT)
    expect(SANDBOX_USAGE).toContain(`(default ${DEFAULT_SANDBOX_PORT})`)
  })
})
