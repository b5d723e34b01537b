/** A consent's status, expiry and SCA window in words, for the consents view. Pure functions of a record and the time. */
import type { ConsentRecordDto } from '../../../src-main/contract/consents.ts'
import { formatDate } from '../../lib/format.ts'
import { formatDuration } from '../data/budget-words.ts'

type Tone = 'done' | 'failed' | 'running' | 'idle'

/** v4.0 consent statuses (and the console's own `Deleted`) in words; v3.1's name where it differs. */
const STATUS_WORDS: Record<string, { words: string; tone: Tone }> = {
  AWAU: { words: 'Awaiting authorisation', tone: 'running' },
  AUTH: { words: 'Authorised', tone: 'done' },
  RJCT: { words: 'Rejected', tone: 'failed' },
  CANC: { words: 'Revoked', tone: 'failed' },
  EXPD: { words: 'Expired', tone: 'failed' },
  COND: { words: 'Consumed', tone: 'done' },
  Deleted: { words: 'Revoked (deleted at the bank by this console)', tone: 'failed' },
}

export function statusWords(status: string | undefined): { words: string; tone: Tone } {
  if (!status) return { words: 'Not read yet', tone: 'idle' }
  return STATUS_WORDS[status] ?? { words: status, tone: 'idle' }
}

/** `Expires 12 Mar 2026, 10:00 (in 89 d 23 h)`, `Expired … ago`, or open-ended. */
export function expiryWords(
  c: Pick<ConsentRecordDto, 'expirationDateTime'>,
  now: number,
): { text: string; expired: boolean } {
  if (!c.expirationDateTime) return { text: 'No expiry date: valid until revoked', expired: false }
  const left = Date.parse(c.expirationDateTime) - now
  if (Number.isNaN(left)) return { text: `Expiry not readable: ${c.expirationDateTime}`, expired: false }
  return left <= 0
    ? { text: `Expired ${formatDate(c.expirationDateTime)} (${formatDuration(-left)} ago)`, expired: true }
    : { text: `Expires ${formatDate(c.expirationDateTime)} (in ${formatDuration(left)})`, expired: false }
}

/** The last strong customer authentication and the 90-day window it opened (older history needs SCA again). */
export function scaWords(c: Pick<ConsentRecordDto, 'lastScaAt' | 'scaWindowEndsAt'>, now: number): string {
  if (!c.lastScaAt) return 'No SCA recorded by this console (the PSU has not authorised it here)'
  const since = now - Date.parse(c.lastScaAt)
  const head = `Last SCA ${formatDate(c.lastScaAt)} (${since < 60_000 ? 'just now' : `${formatDuration(since)} ago`})`
  if (!c.scaWindowEndsAt) return head
  const left = Date.parse(c.scaWindowEndsAt) - now
  return left > 0
    ? `${head}; the 90-day window closes ${formatDate(c.scaWindowEndsAt)} (in ${formatDuration(left)})`
    : `${head}; the 90-day window closed ${formatDate(c.scaWindowEndsAt)}: the PSU must authenticate again for history older than 90 days`
}

/** Whether the console can revoke it: account access consents not already revoked (v4.0 has no DELETE for payment consents). */
export function revocable(c: Pick<ConsentRecordDto, 'kind' | 'status'>): boolean {
  return c.kind === 'ais' && c.status !== 'Deleted' && c.status !== 'CANC'
}
