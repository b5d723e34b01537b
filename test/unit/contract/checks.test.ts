import { describe, expect, it } from 'vitest'
import { allPassed, type CheckResult } from '../../../src-main/contract/checks.ts'

const check = (pass: boolean): CheckResult => ({ name: 'x', pass, expected: 'a', actual: pass ? 'a' : 'b' })

describe('allPassed', () => {
  it('is true only when every check passed', () => {
    expect(allPassed([check(true), check(true)])).toBe(true)
    expect(allPassed([check(true), check(false)])).toBe(false)
    expect(allPassed([])).toBe(true)
  })
})
