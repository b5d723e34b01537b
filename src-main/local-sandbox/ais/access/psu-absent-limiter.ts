import type { SandboxClock } from '../../clock.ts'
import { ObApiError } from '../../http/ob-error.ts'
import type { SandboxStore } from '../../store/sandbox-store.ts'

/** Accesses allowed without the PSU in any 24 hours (the bank's spec, sections 5 and 8). */
export const PSU_ABSENT_LIMIT = 4
export const PSU_ABSENT_WINDOW_MS = 24 * 60 * 60 * 1000

/**
 * What one of the four PSU-absent accesses a day is: the bank's spec (section 5: "a TPP accesses account
 * information at most four times in 24 hours"; section 8's table: "accounts, account, balances and
 * transactions endpoints | at most 4 times per 24 hours") reads both ways.
 * - `per-endpoint` (default): four calls per consent, account and endpoint (the `/accounts` list per
 *   consent): a TPP may refresh each account's balance and transactions four times a day.
 * - `per-consent`: four accesses per consent in 24 hours, whatever the endpoint and account.
 */
export type PsuAbsentQuota = 'per-endpoint' | 'per-consent'
export const PSU_ABSENT_QUOTAS: readonly PsuAbsentQuota[] = ['per-endpoint', 'per-consent']

/**
 * Counts account information accesses made without the PSU present, per counter key (by the quota:
 * consent, account and endpoint; or the consent alone), in a sliding 24-hour window of sandbox time.
 * The fifth access in a window is 429 with `Retry-After`: the seconds until the oldest counted access
 * leaves the window. The counters live in the sandbox store, which checks and counts in one step
 * (`countPsuAbsentAccess`), so concurrent accesses never pass the limit, and a restart does not reset them.
 */
export class PsuAbsentLimiter {
  constructor(
    private readonly store: SandboxStore,
    private readonly clock: SandboxClock,
    readonly quota: PsuAbsentQuota = 'per-endpoint',
  ) {}

  /**
   * Records one PSU-absent access of `consentId` on `endpointKey` (account and endpoint, or `accounts` for
   * the list), counted by the quota, or throws 429; see `hit`.
   */
  access(consentId: string, endpointKey: string, what: string, continuation = false): Promise<void> {
    if (this.quota === 'per-consent')
      return this.hit(
        consentId,
        `an account information endpoint of consent ${consentId} (${what}; quota per consent)`,
        continuation,
      )
    return this.hit(`${consentId}|${endpointKey}`, what, continuation)
  }

  /**
   * Records one PSU-absent access under `key` or throws 429. `continuation` marks a later page of a
   * paginated list (page 2 and on): it is part of the access that fetched page 1 and is not counted
   * again while that access is inside the window.
   */
  async hit(key: string, what: string, continuation = false): Promise<void> {
    const now = this.clock.nowMs()
    const outcome = await this.store.countPsuAbsentAccess(key, {
      nowMs: now,
      limit: PSU_ABSENT_LIMIT,
      windowMs: PSU_ABSENT_WINDOW_MS,
      continuation,
    })
    if (outcome.allowed) return
    const retryAfter = Math.max(1, Math.ceil((outcome.oldestMs + PSU_ABSENT_WINDOW_MS - now) / 1000))
    throw new ObApiError(
      429,
      {
        code: 'U014',
        message: `${what} was already called ${PSU_ABSENT_LIMIT} times without the PSU present in the last 24 hours (the limit); retry after ${retryAfter} seconds, or call with the PSU present (send x-fapi-customer-ip-address)`,
      },
      { 'Retry-After': String(retryAfter) },
    )
  }

  /** Accesses counted under `key` in the current window. */
  used(key: string): Promise<number> {
    return this.store.psuAbsentUsed(key, this.clock.nowMs(), PSU_ABSENT_WINDOW_MS)
  }
}
