import { describe, expect, it } from 'vitest'
import { PsuAbsentBudget } from '../../../../src-main/flows/ais/psu-absent-budget.ts'

describe('PsuAbsentBudget', () => {
  it('counts four calls per consent, account and endpoint in a sliding 24 hours', () => {
    let now = Date.parse('2026-01-01T00:00:00Z')
    const b = new PsuAbsentBudget(() => now)
    for (let i = 0; i < 4; i++) {
      b.record('c1', 'a1', 'balances')
      now += 60_000
    }
    expect(b.budget('c1', 'a1', 'balances')).toMatchObject({
      used: 4,
      remaining: 0,
      nextSlotAt: '2026-01-02T00:00:00.000Z',
    })
    expect(b.budget('c1', 'a2', 'balances')).toMatchObject({ used: 0, remaining: 4 })
    expect(b.budget('c1', 'a1', 'transactions')).toMatchObject({ used: 0, remaining: 4 })
    expect(b.budget('c1', undefined, 'accounts')).toMatchObject({ used: 0, remaining: 4 })
    now = Date.parse('2026-01-02T00:00:30Z')
    expect(b.budget('c1', 'a1', 'balances')).toMatchObject({ used: 3, remaining: 1, nextSlotAt: undefined })
  })

  it('says from when history is available without SCA (90 days back)', () => {
    const b = new PsuAbsentBudget(() => Date.parse('2026-04-01T00:00:00Z'))
    expect(b.budget('c', undefined, 'accounts').historyWithoutScaFrom).toBe('2026-01-01T00:00:00.000Z')
  })

  it('lists the counted pairs of a consent', () => {
    const b = new PsuAbsentBudget(() => 0)
    b.record('c1', undefined, 'accounts')
    b.record('c1', 'a1', 'transactions')
    b.record('c2', 'a1', 'transactions')
    expect(b.all('c1').map((x) => [x.accountId, x.endpoint])).toEqual([
      [undefined, 'accounts'],
      ['a1', 'transactions'],
    ])
  })
})

describe('PsuAbsentBudget kept and keyed', () => {
  it('keeps the calls in its store, so a new instance (a restart) sees what was spent', () => {
    const kept: Record<string, number[]> = {}
    const store = {
      load: () => ({ ...kept }),
      save: (k: string, t: number[]) => {
        kept[k] = t
      },
    }
    let now = 1_000_000
    const first = new PsuAbsentBudget(() => now, store)
    first.record('c1', 'a1', 'balances')
    first.record('c1', 'a1', 'balances')
    now += 1000
    const second = new PsuAbsentBudget(() => now, store)
    expect(second.budget('c1', 'a1', 'balances')).toMatchObject({ used: 2, remaining: 2 })
    expect(second.budget('c1', 'a2', 'balances')).toMatchObject({ used: 0, remaining: 4 })
  })

  it('per consent (the other reading): every account and endpoint of the consent spends the same four calls', () => {
    const budget = new PsuAbsentBudget(() => 5_000_000, undefined, 'consent')
    budget.record('c1', 'a1', 'balances')
    budget.record('c1', 'a2', 'transactions')
    budget.record('c1', undefined, 'accounts')
    expect(budget.budget('c1', 'a3', 'account')).toMatchObject({ used: 3, remaining: 1 })
    expect(budget.budget('c2', 'a1', 'balances')).toMatchObject({ used: 0 })
  })
})

describe('PsuAbsentBudget on the clock of the consent’s bank', () => {
  it('counts each consent on its own clock: moving the sandbox clock a day empties its windows, not a bank’s', () => {
    const wall = Date.parse('2026-05-01T09:00:00Z')
    let sandboxOffset = 0
    const now = (consentId: string) => wall + (consentId.startsWith('sbx') ? sandboxOffset : 0)
    const b = new PsuAbsentBudget(now)
    for (let i = 0; i < 4; i++) {
      b.record('sbx-1', 'a1', 'balances')
      b.record('bank-1', 'a1', 'balances')
    }
    expect(b.budget('sbx-1', 'a1', 'balances')).toMatchObject({ used: 4, nextSlotAt: '2026-05-02T09:00:00.000Z' })
    sandboxOffset = 23 * 3_600_000
    expect(b.budget('sbx-1', 'a1', 'balances')).toMatchObject({ used: 4, remaining: 0 })
    sandboxOffset = 24 * 3_600_000 + 1
    expect(b.budget('sbx-1', 'a1', 'balances')).toMatchObject({ used: 0, remaining: 4 })
    expect(b.budget('sbx-1', 'a1', 'balances').historyWithoutScaFrom).toBe('2026-02-01T09:00:00.001Z')
    expect(b.budget('bank-1', 'a1', 'balances')).toMatchObject({ used: 4, remaining: 0 })
    // A call after the move is stamped on the moved clock.
    b.record('sbx-1', 'a1', 'balances')
    expect(b.budget('sbx-1', 'a1', 'balances').nextReturnAt).toBe('2026-05-03T09:00:00.001Z')
  })
})
