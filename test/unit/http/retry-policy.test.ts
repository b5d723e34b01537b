import { describe, expect, it } from 'vitest'
import {
  backoffMs,
  decideRetry,
  DEFAULT_RETRY_POLICY,
  isRetryableError,
  isRetryableStatus,
  type RetryPolicy,
} from '../../../src-main/http/retry-policy.ts'

const now = new Date('2026-11-25T10:00:00Z')
const policy = (random: number, over: Partial<RetryPolicy> = {}): RetryPolicy => ({
  ...DEFAULT_RETRY_POLICY,
  random: () => random,
  ...over,
})

describe('retry policy', () => {
  it('retries throttling and passing server failures, not client errors nor 501/505', () => {
    for (const s of [429, 500, 502, 503, 504, 599]) expect(isRetryableStatus(s)).toBe(true)
    for (const s of [200, 201, 400, 401, 403, 404, 409, 501, 505]) expect(isRetryableStatus(s)).toBe(false)
    expect(isRetryableError('CONNECTION_RESET')).toBe(true)
    for (const c of ['TIMEOUT', 'TLS_SERVER_UNTRUSTED', 'CONNECTION_REFUSED', 'RESPONSE_TOO_LARGE'])
      expect(isRetryableError(c)).toBe(false)
  })

  it('backs off exponentially with jitter between half and all of the step, capped', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((a) => backoffMs(policy(0), a))).toEqual([250, 500, 1000, 2000, 4000, 4000, 4000])
    expect([1, 2, 3, 4, 5, 6].map((a) => backoffMs(policy(0.999999), a))).toEqual([500, 1000, 2000, 4000, 8000, 8000])
  })

  it('stops after the set number of tries, saying why', () => {
    const p = policy(0.5)
    expect(decideRetry(p, 1, { kind: 'response', status: 503 }, now)).toMatchObject({ retry: true, delayMs: 375 })
    expect(decideRetry(p, 2, { kind: 'error', code: 'CONNECTION_RESET' }, now)).toMatchObject({
      retry: true,
      delayMs: 750,
    })
    expect(decideRetry(p, 3, { kind: 'response', status: 503 }, now)).toEqual({
      retry: false,
      reason: '503 on each of 3 tries',
    })
    expect(decideRetry(p, 3, { kind: 'error', code: 'CONNECTION_RESET' }, now)).toEqual({
      retry: false,
      reason: 'CONNECTION_RESET on each of 3 tries',
    })
    expect(decideRetry(p, 1, { kind: 'response', status: 200 }, now)).toEqual({ retry: false })
    expect(decideRetry(p, 1, { kind: 'error', code: 'TIMEOUT' }, now)).toEqual({ retry: false })
    expect(decideRetry(policy(0.5, { tries: 1 }), 1, { kind: 'response', status: 503 }, now).retry).toBe(false)
  })

  it('waits the Retry-After, in seconds or as a date, up to the ceiling; over it, says how long', () => {
    const p = policy(0.5)
    expect(decideRetry(p, 1, { kind: 'response', status: 429, retryAfter: '3' }, now)).toMatchObject({
      retry: true,
      delayMs: 3000,
      reason: 'the answer was 429 with Retry-After 3',
    })
    expect(
      decideRetry(p, 1, { kind: 'response', status: 503, retryAfter: 'Wed, 25 Nov 2026 10:00:20 GMT' }, now),
    ).toMatchObject({ retry: true, delayMs: 20_000 })
    expect(
      decideRetry(p, 1, { kind: 'response', status: 503, retryAfter: 'Wed, 25 Nov 2026 09:00:00 GMT' }, now),
    ).toMatchObject({ retry: true, delayMs: 0 })
    const long = decideRetry(p, 1, { kind: 'response', status: 429, retryAfter: '3600' }, now)
    expect(long).toMatchObject({ retry: false, tooLong: { seconds: 3600, form: 'seconds' } })
    // Even on the last try, a wait over the ceiling is reported as such.
    expect(
      decideRetry(p, 3, { kind: 'response', status: 429, retryAfter: 'Wed, 25 Nov 2026 12:00:00 GMT' }, now),
    ).toMatchObject({ retry: false, tooLong: { seconds: 7200, form: 'date' } })
    // An unreadable Retry-After falls back to the backoff.
    expect(decideRetry(p, 1, { kind: 'response', status: 503, retryAfter: 'soon' }, now)).toMatchObject({
      retry: true,
      delayMs: 375,
    })
  })
})
