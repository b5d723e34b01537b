/** The PSU-absent budget in words: which consent, which account, which endpoint, and when a call comes back. */
import type { AccountDataDto, PsuAbsentBudgetDto } from '../../../src-main/contract/ais-data.ts'
import { formatDuration } from '../../lib/clock.ts'
import { identification } from './account-data.tsx'

const TYPE_WORDS: Record<string, string> = { CARD: 'Credit card', CACC: 'Current account', SVGS: 'Savings account' }
const ENDPOINT_WORDS: Record<string, string> = {
  accounts: 'Account list',
  account: 'Account details',
  balances: 'Balances',
  transactions: 'Transactions',
}

/** `5 h 12 min`: the one duration format (src-renderer/lib/clock.ts). */
export { formatDuration }

/** `Current account ••1234 (Bills)`, from the account data when the flow read it. */
export function accountWords(accountId: string | undefined, accounts: AccountDataDto[] | undefined): string {
  if (!accountId) return 'All accounts of the consent'
  const a = accounts?.find((x) => x.accountId === accountId)
  if (!a) return `Account ${accountId}`
  const type = a.accountTypeCode ? (TYPE_WORDS[a.accountTypeCode] ?? a.accountTypeCode) : 'Account'
  const ident = identification(a.account)
  return `${type}${ident ? ` ••${ident.slice(-4)}` : ''}${a.nickname ? ` (${a.nickname})` : ''}`
}

/** One row of the budget table as words. */
export function budgetWords(
  b: PsuAbsentBudgetDto,
  accounts: AccountDataDto[] | undefined,
  now: number,
): { consent: string; account: string; endpoint: string; left: string; back: string } {
  const total = b.used + b.remaining
  // When the oldest counted call leaves the 24 hours: the bank's next slot, or (with calls left) when one more comes back.
  const next = b.nextSlotAt ?? b.nextReturnAt
  const wait = next ? Date.parse(next) - now : undefined
  // With calls left the next access is now; the oldest call's return is said when the bank tells it.
  const back =
    b.remaining > 0
      ? b.used === 0
        ? 'available now, nothing used'
        : wait !== undefined && wait > 0
          ? `available now; one more back in ${formatDuration(wait)}`
          : 'available now'
      : wait === undefined || wait <= 0
        ? 'back now'
        : `next access back in ${formatDuration(wait)}`
  return {
    consent: `Consent ${b.consentId.length > 12 ? `${b.consentId.slice(0, 8)}…` : b.consentId}`,
    account: accountWords(b.accountId, accounts),
    endpoint: ENDPOINT_WORDS[b.endpoint] ?? b.endpoint,
    left: b.remaining === 0 ? `none of ${total} left` : `${b.remaining} of ${total} left`,
    back,
  }
}
