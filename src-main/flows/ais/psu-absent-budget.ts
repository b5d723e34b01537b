import type { PsuAbsentBudgetDto } from '../../contract/ais-data.ts'

export const PSU_ABSENT_LIMIT = 4
export const PSU_ABSENT_WINDOW_MS = 24 * 60 * 60 * 1000
export const HISTORY_WITHOUT_SCA_DAYS = 90

/** The four endpoints a TPP may call with the PSU absent (the bank's spec, section 4.2). */
export type ExemptEndpoint = 'accounts' | 'account' | 'balances' | 'transactions'

/**
 * Counts PSU-absent calls per consent, account and exempt endpoint (the unit the local sandbox uses: a
 * TPP may refresh each account's balances and transactions four times a day), so the console can say what
 * is left before each call. The list of accounts counts under the consent alone (no account id). Later
 * pages of a paginated read are part of the call that fetched the first page and are not counted.
 */
/** Where the counted calls are kept between runs (the console state file); absent: in memory only. */
export interface PsuAbsentCallStore {
  load(): Readonly<Record<string, readonly number[]>>
  save(key: string, times: number[]): void
}

/**
 * How calls are counted: as the bank counts them, per consent, account and endpoint (the default), or the
 * other reading of the spec, four PSU-absent calls per consent whatever the account and endpoint.
 */
export type PsuAbsentKeying = 'consent-account-endpoint' | 'consent'

/**
 * Now (ms since the epoch) on the clock of the bank that holds the consent: the local sandbox's clock can be
 * moved, and its 24-hour windows follow it; a bank's is wall time.
 */
export type ConsentClock = (consentId: string) => number

export class PsuAbsentBudget {
  readonly #calls = new Map<string, readonly number[]>()

  constructor(
    private readonly now: ConsentClock = Date.now,
    private readonly store?: PsuAbsentCallStore,
    private readonly keying: PsuAbsentKeying = 'consent-account-endpoint',
  ) {
    for (const [k, v] of Object.entries(store?.load() ?? {})) this.#calls.set(k, v)
  }

  static key(consentId: string, accountId: string | undefined, endpoint: ExemptEndpoint): string {
    return `${consentId}|${accountId ?? ''}|${endpoint}`
  }

  #key(consentId: string, accountId: string | undefined, endpoint: ExemptEndpoint): string {
    return this.keying === 'consent' ? `${consentId}||*` : PsuAbsentBudget.key(consentId, accountId, endpoint)
  }

  #recent(consentId: string, key: string): number[] {
    const cutoff = this.now(consentId) - PSU_ABSENT_WINDOW_MS
    const kept = (this.#calls.get(key) ?? []).filter((t) => t > cutoff)
    this.#calls.set(key, kept)
    return kept
  }

  /** Records one PSU-absent call (and keeps it, when a store is given). */
  record(consentId: string, accountId: string | undefined, endpoint: ExemptEndpoint): void {
    const key = this.#key(consentId, accountId, endpoint)
    const times = [...this.#recent(consentId, key), this.now(consentId)]
    this.#calls.set(key, times)
    this.store?.save(key, times)
  }

  /** What is left for this consent and account. */
  budget(consentId: string, accountId: string | undefined, endpoint: ExemptEndpoint): PsuAbsentBudgetDto {
    const recent = this.#recent(consentId, this.#key(consentId, accountId, endpoint))
    const used = recent.length
    const oldest = recent[0]
    return {
      consentId,
      accountId,
      endpoint,
      used,
      remaining: Math.max(0, PSU_ABSENT_LIMIT - used),
      nextSlotAt:
        used >= PSU_ABSENT_LIMIT && oldest !== undefined
          ? new Date(oldest + PSU_ABSENT_WINDOW_MS).toISOString()
          : undefined,
      ...(oldest !== undefined ? { nextReturnAt: new Date(oldest + PSU_ABSENT_WINDOW_MS).toISOString() } : {}),
      keying: this.keying,
      historyWithoutScaFrom: new Date(this.now(consentId) - HISTORY_WITHOUT_SCA_DAYS * 86_400_000).toISOString(),
    }
  }

  /** Every counted (account, endpoint) of a consent. */
  all(consentId: string): PsuAbsentBudgetDto[] {
    return [...this.#calls.keys()]
      .filter((k) => k.startsWith(`${consentId}|`))
      .map((k) => {
        const [, account, endpoint] = k.split('|')
        return this.budget(consentId, account || undefined, endpoint as ExemptEndpoint)
      })
  }
}
