import { describe, expect, it } from 'vitest'
import type { AccountDataDto } from '../../../../../src-main/contract/ais-data.ts'
import { accountWords, budgetWords, formatDuration } from '../../../../../src-renderer/features/data/budget-words.ts'
import { consentExpiry } from '../../../../../src-renderer/features/flows/consent-expiry.ts'
import { flow, step } from '../../support/fixtures.ts'

const NOW = Date.parse('2026-11-22T10:00:00.000Z')
const current: AccountDataDto = {
  accountId: 'acc-1',
  accountTypeCode: 'CACC',
  nickname: 'Bills',
  currency: 'GBP',
  account: { Account: [{ SchemeName: 'UK.OBIE.SortCodeAccountNumber', Identification: '60161331926819' }] },
  balances: [],
  transactions: { items: [], pages: 1, total: 0, pendingMatched: 0 },
  resources: [],
}

describe('budget in words', () => {
  it('formats durations', () => {
    expect(formatDuration(30_000)).toBe('under a minute')
    expect(formatDuration(3 * 60_000)).toBe('3 min')
    expect(formatDuration((5 * 60 + 12) * 60_000)).toBe('5 h 12 min')
    expect(formatDuration((2 * 1440 + 4 * 60 + 5) * 60_000)).toBe('2 d 4 h')
  })

  it('names the account by type, the last digits and nickname', () => {
    expect(accountWords('acc-1', [current])).toBe('Current account ••6819 (Bills)')
    expect(accountWords(undefined, [current])).toBe('All accounts of the consent')
    expect(accountWords('acc-9', [current])).toBe('Account acc-9')
  })

  it('says consent, account, endpoint, what is left and when the next access returns', () => {
    const w = budgetWords(
      {
        consentId: 'aac-1a2b3c4d-0000-1111',
        accountId: 'acc-1',
        endpoint: 'balances',
        used: 1,
        remaining: 3,
        nextSlotAt: new Date(NOW + (5 * 60 + 12) * 60_000).toISOString(),
        historyWithoutScaFrom: '2026-08-24T10:00:00.000Z',
      },
      [current],
      NOW,
    )
    expect(w).toEqual({
      consent: 'Consent aac-1a2b…',
      account: 'Current account ••6819 (Bills)',
      endpoint: 'Balances',
      left: '3 of 4 left',
      back: 'available now; one more back in 5 h 12 min',
    })
    const exhausted = budgetWords(
      {
        consentId: 'c1',
        accountId: 'acc-1',
        endpoint: 'transactions',
        used: 4,
        remaining: 0,
        nextSlotAt: new Date(NOW + (5 * 60 + 12) * 60_000).toISOString(),
        historyWithoutScaFrom: '',
      },
      [current],
      NOW,
    )
    expect(exhausted).toMatchObject({ left: 'none of 4 left', back: 'next access back in 5 h 12 min' })
    const none = budgetWords(
      {
        consentId: 'c1',
        endpoint: 'accounts',
        used: 4,
        remaining: 0,
        nextSlotAt: new Date(NOW - 1000).toISOString(),
        historyWithoutScaFrom: '',
      },
      undefined,
      NOW,
    )
    expect(
      budgetWords(
        { consentId: 'c1', endpoint: 'accounts', used: 1, remaining: 3, historyWithoutScaFrom: '' },
        undefined,
        NOW,
      ).back,
    ).toBe('available now')
    // The main side says when the oldest counted call comes back, also while calls are left.
    const returning = budgetWords(
      {
        consentId: 'c1',
        endpoint: 'accounts',
        used: 1,
        remaining: 3,
        nextReturnAt: new Date(NOW + 90 * 60_000).toISOString(),
        historyWithoutScaFrom: '',
      },
      undefined,
      NOW,
    )
    expect(returning.back).toBe('available now; one more back in 1 h 30 min')
    expect(none).toMatchObject({
      consent: 'Consent c1',
      account: 'All accounts of the consent',
      endpoint: 'Account list',
      left: 'none of 4 left',
      back: 'back now',
    })
    expect(
      budgetWords(
        { consentId: 'c1', endpoint: 'transactions', used: 0, remaining: 4, historyWithoutScaFrom: '' },
        undefined,
        NOW,
      ).back,
    ).toBe('available now, nothing used')
  })
})

describe('consent expiry', () => {
  it('is shown once the consent exists, from its ExpirationDateTime', () => {
    expect(consentExpiry(flow('f', 'ais', [step('consent', 'idle')]), NOW)).toBeUndefined()
    const at = new Date(NOW + 90 * 86_400_000).toISOString()
    expect(
      consentExpiry(
        flow('f', 'ais', [step('consent', 'done', { output: { consentId: 'c', expirationDateTime: at } })]),
        NOW,
      ),
    ).toMatchObject({ expired: false, text: expect.stringContaining('(in 90 d)') })
    const past = new Date(NOW - 3_600_000).toISOString()
    expect(
      consentExpiry(
        flow('f', 'ais', [step('consent', 'done', { output: { consentId: 'c', expirationDateTime: past } })]),
        NOW,
      ),
    ).toMatchObject({ expired: true, text: expect.stringContaining('1 h ago') })
    expect(
      consentExpiry(flow('f', 'ais', [step('consent', 'done', { output: { consentId: 'c' } })]), NOW)?.text,
    ).toMatch(/without an expiry/)
  })
})
