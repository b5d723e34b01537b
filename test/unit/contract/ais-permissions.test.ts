import { describe, expect, it } from 'vitest'
import {
  AIS_PERMISSIONS,
  checkPermissions,
  DEFAULT_AIS_PERMISSIONS,
} from '../../../src-main/contract/ais-permissions.ts'

const failing = (p: readonly string[]) =>
  checkPermissions(p)
    .filter((c) => !c.pass)
    .map((c) => c.name)

describe('the AIS permissions and their rules', () => {
  it('lists the 21 v4.0 permissions once each, each in a group; the default set passes every rule', () => {
    expect(AIS_PERMISSIONS).toHaveLength(21)
    expect(new Set(AIS_PERMISSIONS.map((p) => p.code)).size).toBe(21)
    expect(AIS_PERMISSIONS.every((p) => p.group && p.description)).toBe(true)
    expect(failing(DEFAULT_AIS_PERMISSIONS)).toEqual([])
  })

  it('rejects an empty list (and, with it, the missing accounts permission)', () => {
    expect(failing([])).toEqual(['At least one permission', 'ReadAccountsBasic or ReadAccountsDetail is present'])
  })

  it('rejects unknown codes, naming them', () => {
    const c = checkPermissions(['ReadAccountsBasic', 'ReadEverything']).find(
      (x) => x.name === 'Only v4.0 permission codes',
    )!
    expect(c.pass).toBe(false)
    expect(c.actual).toBe('ReadEverything')
    expect(c.hint).toContain('Remove ReadEverything')
  })

  it('rejects transactions Basic/Detail without Credits or Debits, and the reverse, each saying what to add', () => {
    expect(failing(['ReadAccountsBasic', 'ReadTransactionsDetail'])).toEqual([
      'Transactions Basic/Detail come with Credits and/or Debits',
    ])
    expect(failing(['ReadAccountsDetail', 'ReadTransactionsCredits'])).toEqual([
      'Transactions Credits/Debits come with Basic or Detail',
    ])
    expect(failing(['ReadAccountsBasic', 'ReadTransactionsBasic', 'ReadTransactionsCredits'])).toEqual([])
    const direction = checkPermissions(['ReadAccountsBasic', 'ReadTransactionsDetail']).find((c) => !c.pass)!
    expect(direction.hint).toBe('Add ReadTransactionsCredits and/or ReadTransactionsDebits.')
  })

  it('requires ReadAccountsBasic or Detail', () => {
    expect(failing(['ReadBalances'])).toEqual(['ReadAccountsBasic or ReadAccountsDetail is present'])
  })
})
