import { describe, expect, it } from 'vitest'
import * as read from '../../../../src-main/local-sandbox/auth/registration/registration-claim-values.ts'
import { refusal } from './support/registration-claims.ts'

describe('reading a claim of the registration request', () => {
  it('a string: present and not empty, else invalid_client_metadata naming the claim and the value', () => {
    expect(read.stringClaim({ scope: 'openid' }, 'scope')).toBe('openid')
    const absent = refusal(() => read.stringClaim({}, 'scope'))
    expect(absent.error).toBe('invalid_client_metadata')
    expect(absent.message).toMatch(/no scope claim; it is required/)
    expect(refusal(() => read.stringClaim({ scope: '' }, 'scope')).message).toMatch(
      /scope is ""; expected a non-empty string/,
    )
    expect(refusal(() => read.stringClaim({ scope: ['openid'] }, 'scope')).message).toMatch(/scope is \["openid"\]/)
  })

  it('an array of strings: non-empty, every item a non-empty string', () => {
    expect(read.stringArrayClaim({ grant_types: ['a', 'b'] }, 'grant_types')).toEqual(['a', 'b'])
    for (const value of [[], ['a', ''], ['a', 1], 'a'])
      expect(refusal(() => read.stringArrayClaim({ grant_types: value }, 'grant_types')).message).toMatch(
        /expected a non-empty JSON array of strings/,
      )
    expect(refusal(() => read.stringArrayClaim({}, 'grant_types')).message).toMatch(/no grant_types claim/)
  })

  it('a time: a positive whole number of seconds', () => {
    expect(read.integerClaim({ iat: 1_800_000_000 }, 'iat')).toBe(1_800_000_000)
    for (const value of [0, -5, 1.5, '1800000000'])
      expect(refusal(() => read.integerClaim({ iat: value }, 'iat')).message).toMatch(
        /expected an integer number of seconds/,
      )
    expect(refusal(() => read.integerClaim({}, 'iat')).message).toMatch(/no iat claim/)
  })
})
