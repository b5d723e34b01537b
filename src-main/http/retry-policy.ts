import { parseRetryAfter, type RetryAfter } from './retry-after.ts'

/**
 * When and how long the HTTP client waits before sending a request again. Only requests that are safe
 * to repeat are retried: GET and HEAD, and a POST that carries the same `x-idempotency-key` on every try
 * (the bank then answers the resource the first try created instead of making a second one).
 */
export interface RetryPolicy {
  /** Tries in all, the first included (1: never retry). */
  tries: number
  /** Backoff of the first retry; doubled for each further one, then jittered (full jitter). */
  baseDelayMs: number
  /** The longest backoff a retry waits when the bank gave no Retry-After. */
  maxDelayMs: number
  /**
   * The longest `Retry-After` the client honours by waiting. A longer one is not slept through: the
   * request fails at once with the wait named (a 429 may ask for hours).
   */
  retryAfterCeilingMs: number
  /** Waits (injectable so tests do not sleep). */
  sleep: (ms: number) => Promise<void>
  /** A number in [0, 1) for the jitter (injectable for tests). */
  random: () => number
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  tries: 3,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  retryAfterCeilingMs: 60_000,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  random: Math.random,
}

/** What came back from one try, as far as the retry decision needs it. */
export type TryOutcome = { kind: 'response'; status: number; retryAfter?: string } | { kind: 'error'; code: string }

export type RetryDecision =
  | { retry: true; delayMs: number; reason: string; retryAfter?: RetryAfter }
  /** `tooLong`: the bank's Retry-After is over the policy's ceiling (the caller says so instead of waiting). */
  | { retry: false; reason?: string; tooLong?: RetryAfter }

/** Statuses worth another try: the bank throttled (429) or failed in a way that may pass (5xx but 501 and 505, which will not). */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status <= 599 && status !== 501 && status !== 505)
}

/** Error codes (the closed set's) worth another try: the connection went away before the answer. */
const RETRYABLE_ERRORS = new Set(['CONNECTION_RESET'])

export function isRetryableError(code: string): boolean {
  return RETRYABLE_ERRORS.has(code)
}

/** The backoff before try `attempt + 1` (attempt: 1 for the first try): exponential, capped, full jitter. */
export function backoffMs(policy: RetryPolicy, attempt: number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1))
  // Full jitter, with a floor of half the step so a retry never goes out at once.
  return Math.round(ceiling / 2 + policy.random() * (ceiling / 2))
}

/**
 * Whether to send again after try `attempt` (1-based) ended with `outcome`, and after how long. A
 * `Retry-After` (seconds or an HTTP date) is honoured as given when it is within the ceiling; over it,
 * the answer is not to retry, with the wait in `tooLong`.
 *
 * @example decideRetry(DEFAULT_RETRY_POLICY, 1, { kind: 'response', status: 503, retryAfter: '2' }, now) // { retry: true, delayMs: 2000, ... }
 */
export function decideRetry(policy: RetryPolicy, attempt: number, outcome: TryOutcome, now: Date): RetryDecision {
  if (outcome.kind === 'error') {
    if (!isRetryableError(outcome.code)) return { retry: false }
    if (attempt >= policy.tries) return { retry: false, reason: `${outcome.code} on each of ${attempt} tries` }
    return {
      retry: true,
      delayMs: backoffMs(policy, attempt),
      reason: outcome.code === 'CONNECTION_RESET' ? 'the connection was reset before the answer' : outcome.code,
    }
  }
  if (!isRetryableStatus(outcome.status)) return { retry: false }
  const retryAfter = parseRetryAfter(outcome.retryAfter, now)
  if (retryAfter && retryAfter.seconds * 1000 > policy.retryAfterCeilingMs) return { retry: false, tooLong: retryAfter }
  if (attempt >= policy.tries) return { retry: false, reason: `${outcome.status} on each of ${attempt} tries` }
  const reason = `the answer was ${outcome.status}`
  if (retryAfter)
    return {
      retry: true,
      delayMs: retryAfter.seconds * 1000,
      reason: `${reason} with Retry-After ${outcome.retryAfter}`,
      retryAfter,
    }
  return { retry: true, delayMs: backoffMs(policy, attempt), reason }
}
