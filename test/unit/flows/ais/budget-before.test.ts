import { describe, expect, it } from 'vitest'
import type { AisFlowInput } from '../../../../src-main/contract/api.ts'
import { budgetBeforeStep } from '../../../../src-main/flows/ais/budget-before.ts'
import { PsuAbsentBudget } from '../../../../src-main/flows/ais/psu-absent-budget.ts'

const NOW = Date.parse('2026-03-01T12:00:00Z')
const input = (over: Partial<AisFlowInput> = {}): AisFlowInput => ({
  kind: 'ais',
  environmentId: 'e',
  clientId: 'c',
  permissions: ['ReadAccountsBasic', 'ReadBalances', 'ReadTransactionsBasic', 'ReadTransactionsCredits'],
  psuPresent: false,
  capture: 'headless',
  authorisationUrlFrom: 'o3-helper',
  ...over,
})

function outputs(done: Record<string, unknown>) {
  return { has: (id: string) => id in done, output: <T>(id: string) => done[id] as T }
}

const ran = {
  consent: { consentId: 'aac-1' },
  accounts: { accounts: [{ AccountId: 'acc-1' }, { AccountId: 'acc-2' }] },
}

describe('the PSU-absent allowance a step would spend, before it runs', () => {
  it('one row per call, counted per consent, account and endpoint as the bank counts', () => {
    let now = NOW
    const b = new PsuAbsentBudget(() => now)
    b.record('aac-1', 'acc-1', 'balances')
    now += 60 * 60_000
    const rows = budgetBeforeStep('balances', input(), outputs(ran), b)
    expect(rows.map((r) => [r.accountId, r.endpoint, r.used, r.remaining])).toEqual([
      ['acc-1', 'balances', 1, 3],
      ['acc-2', 'balances', 0, 4],
    ])
    expect(rows[0]).toMatchObject({ keying: 'consent-account-endpoint', nextReturnAt: '2026-03-02T12:00:00.000Z' })
    expect(rows[1]!.nextReturnAt).toBeUndefined()
    expect(budgetBeforeStep('accounts', input(), outputs(ran), b)).toMatchObject([
      { accountId: undefined, endpoint: 'accounts', remaining: 4 },
    ])
  })

  it("under the per-consent reading, the step's own calls take from the same four", () => {
    const b = new PsuAbsentBudget(() => NOW, undefined, 'consent')
    b.record('aac-1', undefined, 'accounts')
    const rows = budgetBeforeStep('transactions', input(), outputs(ran), b)
    expect(rows.map((r) => r.remaining)).toEqual([3, 2])
    expect(rows.every((r) => r.keying === 'consent')).toBe(true)
  })

  it('nothing when the PSU is present, for a step that spends none, without the permission, or before the consent or the accounts', () => {
    const b = new PsuAbsentBudget(() => NOW)
    expect(budgetBeforeStep('balances', input({ psuPresent: true }), outputs(ran), b)).toEqual([])
    expect(budgetBeforeStep('other-resources', input(), outputs(ran), b)).toEqual([])
    expect(budgetBeforeStep('balances', input({ permissions: ['ReadAccountsBasic'] }), outputs(ran), b)).toEqual([])
    expect(budgetBeforeStep('accounts', input(), outputs({}), b)).toEqual([])
    expect(budgetBeforeStep('balances', input(), outputs({ consent: ran.consent }), b)).toEqual([])
  })
})
