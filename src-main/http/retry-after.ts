/**
 * `Retry-After` as RFC 9110 section 10.2.3 defines it: either a number of seconds (`120`) or an HTTP date
 * (`Wed, 25 Nov 2026 10:00:00 GMT`). Read once here, so the retry policy and the explanations agree.
 */
export interface RetryAfter {
  /** Seconds to wait from `now` (0 when the date is already past). */
  seconds: number
  /** The moment the wait ends. */
  at: Date
  /** How the bank wrote it. */
  form: 'seconds' | 'date'
}

const DELAY_SECONDS = /^\d{1,10}$/

/**
 * Parses a `Retry-After` value; undefined when it is absent or neither form (the caller says so).
 *
 * @example parseRetryAfter('120', now)?.seconds // 120
 * @example parseRetryAfter('Wed, 25 Nov 2026 10:00:30 GMT', new Date('2026-11-25T10:00:00Z'))?.seconds // 30
 */
export function parseRetryAfter(value: string | undefined, now: Date): RetryAfter | undefined {
  if (value === undefined) return undefined
  const v = value.trim()
  if (DELAY_SECONDS.test(v)) {
    const seconds = Number(v)
    return { seconds, at: new Date(now.getTime() + seconds * 1000), form: 'seconds' }
  }
  // An HTTP date always names its zone (GMT); Date.parse reads IMF-fixdate, RFC 850 and asctime forms.
  if (!/[a-z]/i.test(v)) return undefined
  const ms = Date.parse(v)
  if (Number.isNaN(ms)) return undefined
  const seconds = Math.max(0, Math.ceil((ms - now.getTime()) / 1000))
  return { seconds, at: new Date(ms), form: 'date' }
}

/**
 * A `Retry-After` in words for an explanation: `120 s` or `until 10:00:30 UTC (30 s)`; the raw value,
 * quoted, when it cannot be read.
 */
export function describeRetryAfter(value: string | undefined, now: Date): string | undefined {
  if (value === undefined) return undefined
  const parsed = parseRetryAfter(value, now)
  if (!parsed) return `"${value}" (not a number of seconds nor an HTTP date)`
  if (parsed.form === 'seconds') return `${parsed.seconds} s`
  return `until ${parsed.at.toISOString().slice(11, 19)} UTC on ${parsed.at.toISOString().slice(0, 10)} (${parsed.seconds} s)`
}
