import type { PsuAbsentBudgetDto } from '../../contract/ais-data.ts'

export const PSU_ABSENT_LIMIT = 4
export const PSU_ABSENT_WINDOW_MS = 24 * 60 * 60 * 1000
export const HISTORY_WITHOUT_SCA_DAYS = 90

/** The four endpoints a TPP may call with the PSU absent (the bank's spec, section 4.2). */
export type ExemptEndpoint = 'accounts' | 'account' | 'balances' | 'transactions'

/**
 * Counts PSU-absent calls per consent and account (the unit the local sandbox uses, and the usual reading
 * of the bank's "four times in 24 hours"), so the console can say what is left before each call. The list
 * of accounts counts under the consent alone (no account id).
 */
export class PsuAbsentBudget {
  readonly #calls = new Map<string, number[]>()

  constructor(private readonly now: () => number = Date.now) {}

  static key(consentId: string, accountId?: string): string {
    return `${consentId}|${accountId ?? ''}`
  }

  #recent(key: string): number[] {
    const cutoff = this.now() - PSU_ABSENT_WINDOW_MS
    const kept = (this.#calls.get(key) ?? []).filter((t) => t > cutoff)
    this.#calls.set(key, kept)
    return kept
  }

  /** Records one PSU-absent call. */
  record(consentId: string, accountId?: string): void {
    const key = PsuAbsentBudget.key(consentId, accountId)
    this.#calls.set(key, [...this.#recent(key), this.now()])
  }

  /** What is left for this consent and account. */
  budget(consentId: string, accountId?: string): PsuAbsentBudgetDto {
    const recent = this.#recent(PsuAbsentBudget.key(consentId, accountId))
    const used = recent.length
    const oldest = recent[0]
    return {
      consentId,
      accountId,
      used,
      remaining: Math.max(0, PSU_ABSENT_LIMIT - used),
      nextSlotAt: used >= PSU_ABSENT_LIMIT && oldest !== undefined ? new Date(oldest + PSU_ABSENT_WINDOW_MS).toISOString() : undefined,
      historyWithoutScaFrom: new Date(this.now() - HISTORY_WITHOUT_SCA_DAYS * 86_400_000).toISOString(),
    }
  }

  /** Every counted consent/account pair of a consent. */
  all(consentId: string): PsuAbsentBudgetDto[] {
    return [...this.#calls.keys()]
      .filter((k) => k.startsWith(`${consentId}|`))
      .map((k) => this.budget(consentId, k.split('|')[1] || undefined))
  }
}
