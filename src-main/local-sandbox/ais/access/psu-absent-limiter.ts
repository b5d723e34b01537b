import { join } from 'node:path'
import type { SandboxClock } from '../../clock.ts'
import { ObApiError } from '../../http/ob-error.ts'
import { JournaledMap } from '../../store/journaled-map.ts'

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
 * leaves the window. Counters persist in `state/ais-psu-absent.json` and its journal (see JournaledMap), so
 * a restart does not reset them; keys with no access left in the window are dropped from the snapshot.
 */
export class PsuAbsentLimiter {
  readonly #hits: JournaledMap<number[]>

  constructor(
    stateDir: string,
    private readonly clock: SandboxClock,
    readonly quota: PsuAbsentQuota = 'per-endpoint',
  ) {
    this.#hits = new JournaledMap(join(stateDir, 'ais-psu-absent.json'), {
      keep: (times) => times.some((t) => t > this.clock.nowMs() - PSU_ABSENT_WINDOW_MS),
    })
  }

  /**
   * Records one PSU-absent access of `consentId` on `endpointKey` (account and endpoint, or `accounts` for
   * the list), counted by the quota, or throws 429; see `hit`.
   */
  access(consentId: string, endpointKey: string, what: string, continuation = false): void {
    if (this.quota === 'per-consent')
      this.hit(
        consentId,
        `an account information endpoint of consent ${consentId} (${what}; quota per consent)`,
        continuation,
      )
    else this.hit(`${consentId}|${endpointKey}`, what, continuation)
  }

  /**
   * Records one PSU-absent access under `key` or throws 429. `continuation` marks a later page of a
   * paginated list (page 2 and on): it is part of the access that fetched page 1 and is not counted
   * again while that access is inside the window.
   */
  hit(key: string, what: string, continuation = false): void {
    const now = this.clock.nowMs()
    const recent = (this.#hits.get(key) ?? []).filter((t) => t > now - PSU_ABSENT_WINDOW_MS)
    if (continuation && recent.length > 0) return
    if (recent.length >= PSU_ABSENT_LIMIT) {
      const retryAfter = Math.max(1, Math.ceil((recent[0]! + PSU_ABSENT_WINDOW_MS - now) / 1000))
      throw new ObApiError(
        429,
        {
          code: 'U014',
          message: `${what} was already called ${PSU_ABSENT_LIMIT} times without the PSU present in the last 24 hours (the limit); retry after ${retryAfter} seconds, or call with the PSU present (send x-fapi-customer-ip-address)`,
        },
        { 'Retry-After': String(retryAfter) },
      )
    }
    recent.push(now)
    this.#hits.set(key, recent)
  }

  /** Accesses counted under `key` in the current window. */
  used(key: string): number {
    const now = this.clock.nowMs()
    return (this.#hits.get(key) ?? []).filter((t) => t > now - PSU_ABSENT_WINDOW_MS).length
  }
}
