/**
 * Before a PSU-absent call: what it spends of the allowance, in words ("This call spends 1 of the 4
 * accesses to /accounts/acc-1/balances left today (a rolling 24 hours); the next comes back at …").
 */
import type { PsuAbsentBudgetDto } from '../../../src-main/contract/ais-data.ts'
import { formatDate } from '../../lib/format.ts'
import { formatDuration } from '../data/budget-words.ts'

/** The path a counted call reads: the account list, an account, its balances or its transactions. */
export function budgetPath(b: Pick<PsuAbsentBudgetDto, 'accountId' | 'endpoint'>): string {
  if (!b.accountId || b.endpoint === 'accounts') return '/accounts'
  return b.endpoint === 'account' ? `/accounts/${b.accountId}` : `/accounts/${b.accountId}/${b.endpoint}`
}

export function beforeCallWords(b: PsuAbsentBudgetDto, now: number): { text: string; refused: boolean } {
  const total = b.used + b.remaining
  const path = budgetPath(b)
  const what =
    b.keying === 'consent'
      ? `PSU-absent calls of consent ${b.consentId} (counted per consent, the other reading of the spec; this call reads ${path})`
      : `accesses to ${path}`
  const back = b.nextReturnAt ? Date.parse(b.nextReturnAt) - now : undefined
  const when =
    b.nextReturnAt && back !== undefined && back > 0
      ? `${formatDate(b.nextReturnAt)} (in ${formatDuration(back)})`
      : undefined
  if (b.remaining === 0) {
    return {
      text:
        `No ${what} left today (a rolling 24 hours: ${b.used} of ${total} used): the console refuses this ` +
        `call${when ? `; the next access comes back at ${when}` : ''}.`,
      refused: true,
    }
  }
  const next =
    b.used === 0
      ? 'none used yet'
      : when
        ? `the next used one comes back at ${when}`
        : 'the oldest used one is back now'
  return {
    text: `This call spends 1 of the ${b.remaining} ${what} left today (a rolling 24 hours; ${total} in all); ${next}.`,
    refused: false,
  }
}
