import { describe, expect, it } from 'vitest'
import { beforeCallWords, budgetPath } from '../../../../../src-renderer/features/flows/budget-before-words.ts'

const NOW = Date.parse('2026-03-01T12:00:00Z')
const H = 3_600_000

describe('the PSU-absent allowance before a call, in words', () => {
  const row = {
    consentId: 'aac-1',
    accountId: 'acc-1',
    endpoint: 'balances',
    historyWithoutScaFrom: '',
    keying: 'consent-account-endpoint' as const,
  }

  it('names the path, what is left and when the next access comes back', () => {
    expect(budgetPath({ endpoint: 'accounts' })).toBe('/accounts')
    expect(budgetPath({ accountId: 'acc-1', endpoint: 'account' })).toBe('/accounts/acc-1')
    expect(beforeCallWords({ ...row, used: 0, remaining: 4 }, NOW)).toEqual({
      text: 'This call spends 1 of the 4 accesses to /accounts/acc-1/balances left today (a rolling 24 hours; 4 in all); none used yet.',
      refused: false,
    })
    const one = beforeCallWords(
      { ...row, used: 1, remaining: 3, nextReturnAt: new Date(NOW + 5 * H).toISOString() },
      NOW,
    )
    expect(one.text).toMatch(
      /^This call spends 1 of the 3 accesses to \/accounts\/acc-1\/balances left today .* the next used one comes back at .* \(in 5 h\)\.$/,
    )
  })

  it('says a call would be refused when none is left', () => {
    const none = beforeCallWords(
      { ...row, used: 4, remaining: 0, nextReturnAt: new Date(NOW + 30 * 60_000).toISOString() },
      NOW,
    )
    expect(none.refused).toBe(true)
    expect(none.text).toMatch(
      /^No accesses to \/accounts\/acc-1\/balances left today .*4 of 4 used.*refuses this call; the next access comes back at .* \(in 30 min\)\.$/,
    )
  })

  it('says so when counting per consent (the other reading)', () => {
    expect(beforeCallWords({ ...row, keying: 'consent', used: 2, remaining: 2 }, NOW).text).toContain(
      'PSU-absent calls of consent aac-1 (counted per consent',
    )
  })
})
