import { describe, expect, it } from 'vitest'
import {
  AIS_PERMISSIONS,
  checkPermissions,
  DEFAULT_AIS_PERMISSIONS,
} from '../../../../src-main/flows/ais/permissions.ts'

const failing = (p: string[]) =>
  checkPermissions(p)
    .filter((c) => !c.pass)
    .map((c) => c.name)

describe('checkPermissions', () => {
  it('knows the 21 v4.0 permissions and accepts the default set', () => {
    expect(Object.keys(AIS_PERMISSIONS)).toHaveLength(21)
    expect(failing(DEFAULT_AIS_PERMISSIONS)).toEqual([])
  })

  it('rejects an empty list (and, with it, the missing accounts permission)', () => {
    expect(failing([])).toEqual(['at least one permission', 'accounts permission'])
  })

  it('rejects unknown codes, naming them', () => {
    const c = checkPermissions(['ReadAccountsBasic', 'ReadEverything']).find(
      (x) => x.name === 'known permission codes',
    )!
    expect(c.pass).toBe(false)
    expect(c.actual).toBe('ReadEverything')
  })

  it('rejects transactions Basic/Detail without Credits or Debits, and the reverse', () => {
    expect(failing(['ReadAccountsBasic', 'ReadTransactionsDetail'])).toEqual(['transactions: kind with direction'])
    expect(failing(['ReadAccountsBasic', 'ReadTransactionsDebits'])).toEqual(['transactions: direction with kind'])
    expect(failing(['ReadAccountsBasic', 'ReadTransactionsBasic', 'ReadTransactionsCredits'])).toEqual([])
  })

  it('requires ReadAccountsBasic or Detail', () => {
    expect(failing(['ReadBalances'])).toEqual(['accounts permission'])
  })
})
