/** A consent's status, expiry and SCA window in words, for the consents view. Pure functions of a record and the time. */
import type { ConsentRecordDto } from '../../../src-main/contract/consents.ts'
import { formatDate } from '../../lib/format.ts'
import { formatDuration, relativeTime } from '../../lib/clock.ts'

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

/**
 * Expired by name: the bank said EXPD, or the expiry date is past by the environment's clock (`now`: the
 * environment's time, src-renderer/store/use-environment-now.ts).
 */
export function consentExpired(c: Pick<ConsentRecordDto, 'status' | 'expirationDateTime'>, now: number): boolean {
  if (c.status === 'EXPD') return true
  return !!c.expirationDateTime && relativeTime(c.expirationDateTime, now)?.past === true
}

/** `Expires 12 Mar 2026, 10:00 (in 89 d 23 h)`, `Expired 12 Mar 2026, 10:00 (6 d ago)`, or open-ended. */
export function expiryWords(
  c: Pick<ConsentRecordDto, 'status' | 'expirationDateTime'>,
  now: number,
): { text: string; expired: boolean } {
  const at = c.expirationDateTime
  const when = at ? relativeTime(at, now) : undefined
  if (c.status === 'EXPD' && !when?.past)
    return {
      text: `Expired: the bank says EXPD${at ? ` (its expiry date was ${formatDate(at)})` : ''}`,
      expired: true,
    }
  if (!at) return { text: 'No expiry date: valid until revoked', expired: false }
  if (!when) return { text: `Expiry not readable: ${at}`, expired: false }
  return when.past
    ? { text: `Expired ${formatDate(at)} (${when.words})`, expired: true }
    : { text: `Expires ${formatDate(at)} (${when.words})`, expired: false }
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

/**
 * Whether the console offers Revoke: account access consents not already revoked nor expired (by the bank's
 * word or the environment's clock; v4.0 has no DELETE for payment consents).
 */
export function revocable(c: Pick<ConsentRecordDto, 'kind' | 'status' | 'expirationDateTime'>, now: number): boolean {
  return c.kind === 'ais' && c.status !== 'Deleted' && c.status !== 'CANC' && !consentExpired(c, now)
}

/** The status badge's words: an authorised consent past its expiry by the environment's clock is said expired. */
export function badgeWords(
  c: Pick<ConsentRecordDto, 'status' | 'expirationDateTime'>,
  now: number,
): { words: string; tone: Tone } {
  const status = statusWords(c.status)
  if (c.status === 'EXPD') return { words: `${status.words} (EXPD)`, tone: status.tone }
  if (consentExpired(c, now) && c.status !== 'Deleted' && c.status !== 'CANC' && c.status !== 'RJCT')
    return { words: `Expired (the bank last said ${c.status ?? 'nothing yet'})`, tone: 'failed' }
  return { words: `${status.words}${c.status && c.status !== 'Deleted' ? ` (${c.status})` : ''}`, tone: status.tone }
}
