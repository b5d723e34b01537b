import { describe, expect, it } from 'vitest'
import { validateReadConsent } from '../../../../src-main/local-sandbox/ais/consents/consent-schema.ts'
import {
  GrantedPermissions,
  PERMISSIONS,
  validatePermissions,
} from '../../../../src-main/local-sandbox/ais/consents/permissions.ts'
import { ObApiError } from '../../../../src-main/local-sandbox/http/ob-error.ts'

function failure(fn: () => unknown): ObApiError {
  try {
    fn()
  } catch (err) {
    if (err instanceof ObApiError) return err
    throw err
  }
  throw new Error('expected an ObApiError')
}

describe('permission rules (v4.0 account and transaction profile)', () => {
  it('lists the 21 v4.0 codes', () => {
    expect(PERMISSIONS).toHaveLength(21)
    expect(new Set(PERMISSIONS).size).toBe(21)
  })

  it.each([
    [['ReadAccountsBasic']],
    [['ReadAccountsBasic', 'ReadAccountsDetail']],
    [['ReadAccountsDetail', 'ReadTransactionsBasic', 'ReadTransactionsCredits']],
    [['ReadAccountsDetail', 'ReadTransactionsDetail', 'ReadTransactionsDebits', 'ReadTransactionsBasic']],
    [[...PERMISSIONS]],
  ])('accepts %j', (permissions) => {
    expect(() => validatePermissions(permissions)).not.toThrow()
  })

  it.each([
    [[], 'U004', /empty/],
    [['ReadAccountsBasic', 'ReadAll'], 'U002', /unknown permission code "ReadAll"/],
    [['ReadBalances'], 'U002', /ReadAccountsBasic or ReadAccountsDetail/],
    [
      ['ReadAccountsBasic', 'ReadTransactionsBasic'],
      'U002',
      /ReadTransactionsBasic needs at least one of ReadTransactionsCredits/,
    ],
    [['ReadAccountsBasic', 'ReadTransactionsDetail'], 'U002', /ReadTransactionsDetail needs/],
    [
      ['ReadAccountsBasic', 'ReadTransactionsCredits'],
      'U002',
      /ReadTransactionsCredits needs at least one of ReadTransactionsBasic/,
    ],
    [
      ['ReadAccountsBasic', 'ReadTransactionsDebits', 'ReadTransactionsCredits'],
      'U002',
      /needs at least one of ReadTransactionsBasic and ReadTransactionsDetail/,
    ],
  ])('refuses %j with %s', (permissions, code, message) => {
    const err = failure(() => validatePermissions(permissions))
    expect(err.status).toBe(400)
    expect(err.details[0]!.code).toBe(code)
    expect(err.details[0]!.message).toMatch(message)
    expect(err.details[0]!.path).toMatch(/^Data\.Permissions/)
  })

  it('names every unknown code with its index', () => {
    const err = failure(() => validatePermissions(['ReadAccountsBasic', 'X', 'ReadBalances', 'Y']))
    expect(err.details.map((d) => d.path)).toEqual(['Data.Permissions[1]', 'Data.Permissions[3]'])
  })

  it('grants Basic through Detail and reads directions and ReadPAN', () => {
    const p = new GrantedPermissions(['ReadAccountsDetail', 'ReadTransactionsBasic', 'ReadTransactionsDebits'])
    expect(p.any('Accounts')).toBe(true)
    expect(p.detail('Accounts')).toBe(true)
    expect(p.detail('Transactions')).toBe(false)
    expect(p.transactionDirections).toEqual({ credits: false, debits: true })
    expect(p.pan).toBe(false)
  })
})

describe('OBReadConsent1 schema', () => {
  const ok = { Data: { Permissions: ['ReadAccountsBasic'], ExpirationDateTime: '2030-01-01T00:00:00+01:00' }, Risk: {} }

  it('accepts a valid body', () => {
    expect(validateReadConsent(ok)).toBe(ok)
  })

  it('follows the official file where it leaves members open (no additionalProperties: false on the body and Data)', () => {
    const open = { ...ok, Extra: true }
    expect(validateReadConsent(open)).toBe(open)
  })

  it.each([
    [{ Data: ok.Data }, 'U004', 'Risk'],
    [{ ...ok, Risk: { x: 1 } }, 'U005', 'Risk.x'],
    [{ ...ok, Data: { ...ok.Data, Permissions: ['ReadEverything'] } }, 'U002', 'Data.Permissions[0]'],
    [{ Data: { ...ok.Data, TransactionToDateTime: '2030-01-01' }, Risk: {} }, 'U003', 'Data.TransactionToDateTime'],
    [{ Data: { Permissions: [1] }, Risk: {} }, 'U002', 'Data.Permissions[0]'],
    [{ Data: 'x', Risk: {} }, 'U002', 'Data'],
    ['text', 'U002', ''],
  ])('maps %j to %s at %s', (body, code, path) => {
    const err = failure(() => validateReadConsent(body))
    expect(err.details[0]!.code).toBe(code)
    expect(err.details[0]!.path ?? '').toBe(path)
  })
})
