import { describe, expect, it } from 'vitest'
import { isAppError } from '../../../../src-main/core/app-error.ts'
import { bankId, bankIdPattern } from '../../../../src-main/flows/common/bank-id.ts'

function refusal(fn: () => unknown) {
  try {
    fn()
  } catch (err) {
    if (isAppError(err)) return err
    throw err
  }
  throw new Error('the id was accepted')
}

describe('bankId: identifiers from the bank before they reach a URL or a request object', () => {
  it('returns an Open Banking identifier as it is', () => {
    expect(bankId('ConsentId', 'aac-7f3a.9:x_Y-1', 'the new consent')).toBe('aac-7f3a.9:x_Y-1')
    expect(bankId('AccountId', 'a'.repeat(40), 'an account')).toBe('a'.repeat(40))
    expect(bankId('ConsentId', 'c'.repeat(128), 'the new consent')).toBe('c'.repeat(128))
  })

  it('refuses control characters with BANK_ID_INVALID, naming the field, the escaped value and the pattern', () => {
    const err = refusal(() => bankId('ConsentId', 'aac-1\x1b[2J\x1b[31m', 'the new consent'))
    expect(err.code).toBe('BANK_ID_INVALID')
    expect(err.what).toContain('ConsentId')
    expect(err.what).toContain('aac-1\\x1b[2J\\x1b[31m')
    expect(err.cause).toContain('^[A-Za-z0-9._:\\-]{1,128}$')
    expect(err.details).toEqual({ field: 'ConsentId', pattern: bankIdPattern('ConsentId') })
    // eslint-disable-next-line no-control-regex -- asserting their absence
    expect(`${err.what}${err.cause}${err.fix}`).not.toMatch(/[\x00-\x1f\x7f-\x9f]/)
  })

  it('refuses C1 controls, spaces, slashes, the empty string, non-strings and ids over the schema maxLength', () => {
    for (const bad of ['p\u009b2J', 'a b', '../admin', 'a/b', '', 'x?y=1']) {
      expect(refusal(() => bankId('DomesticPaymentId', bad, 'the new payment')).code).toBe('BANK_ID_INVALID')
    }
    expect(refusal(() => bankId('AccountId', 7, 'an account')).cause).toContain('not a string')
    expect(refusal(() => bankId('AccountId', 'a'.repeat(41), 'an account')).cause).toContain(
      '41 characters (at most 40)',
    )
    expect(refusal(() => bankId('ConsentId', 'c'.repeat(129), 'the new consent')).code).toBe('BANK_ID_INVALID')
  })
})
