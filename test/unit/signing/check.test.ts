import { describe, expect, it } from 'vitest'
import { check, show } from '../../../src-main/signing/check.ts'

describe('check', () => {
  it('shows values and keeps hints for failures and warnings only', () => {
    expect(show(undefined)).toBe('absent')
    expect(show('x')).toBe('x')
    expect(show(['a', 1])).toBe('["a",1]')
    expect(check('n', true, 'a', 'a', 'hint')).toEqual({ name: 'n', pass: true, expected: 'a', actual: 'a' })
    expect(check('n', false, 'a', 'b', 'hint')).toEqual({ name: 'n', pass: false, expected: 'a', actual: 'b', hint: 'hint' })
    expect(check('n', true, 'a', 'a', 'soon', 'warning')).toEqual({ name: 'n', pass: true, expected: 'a', actual: 'a', hint: 'soon', severity: 'warning' })
  })
})
