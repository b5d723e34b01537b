import { describe, expect, it } from 'vitest'
import { assertChecksPass, check, show } from '../../../src-main/signing/check.ts'

describe('check', () => {
  it('shows values and keeps hints for failures and warnings only', () => {
    expect(show(undefined)).toBe('absent')
    expect(show('x')).toBe('x')
    expect(show(['a', 1])).toBe('["a",1]')
    expect(check('n', true, 'a', 'a', 'hint')).toEqual({ name: 'n', pass: true, expected: 'a', actual: 'a' })
    expect(check('n', false, 'a', 'b', 'hint')).toEqual({
      name: 'n',
      pass: false,
      expected: 'a',
      actual: 'b',
      hint: 'hint',
    })
    expect(check('n', true, 'a', 'a', 'soon', 'warning')).toEqual({
      name: 'n',
      pass: true,
      expected: 'a',
      actual: 'a',
      hint: 'soon',
      severity: 'warning',
    })
  })
})

describe('assertChecksPass', () => {
  it('throws the given code listing the failed checks, ignoring warnings', () => {
    expect(() =>
      assertChecksPass([check('a', true, 1, 1), check('w', false, 1, 2, 'soon', 'warning')], 'SIGNATURE_INVALID', 'x'),
    ).not.toThrow()
    try {
      assertChecksPass(
        [check('nonce', false, 'n1', 'n2', 'another request'), check('iss', false, 'a', 'b')],
        'SIGNATURE_INVALID',
        'Validating the ID token failed',
      )
      expect.unreachable()
    } catch (err) {
      expect(err).toMatchObject({
        code: 'SIGNATURE_INVALID',
        what: 'Validating the ID token failed',
        cause: 'nonce: expected n1, got n2; iss: expected a, got b',
        fix: 'another request',
      })
      expect((err as { problems: unknown[] }).problems).toHaveLength(2)
    }
  })
})
