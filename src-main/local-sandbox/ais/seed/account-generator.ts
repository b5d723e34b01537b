import type { AccountSpec, MerchantSpec, SpendSpec } from './catalogue.ts'
import type { Calendar } from './calendar.ts'
import type { LedgerEntry } from './ledger.ts'
import { Prng } from './prng.ts'

/** What a new entry needs; the generator adds its sequence number, ids and balance. */
export type NewEntry = Omit<LedgerEntry, 'seq' | 'balanceAfter'>

/** Relative spending by weekday (Sunday first): more on Fridays and weekends. */
const WEEKDAY_FACTOR = [1.1, 0.85, 0.9, 0.95, 1.0, 1.2, 1.4]

/**
 * The state one account's generator carries from day to day: its own PRNG (so each account's history
 * depends only on its seed, never on the order accounts are generated in), the projected balance
 * spending decisions look at, and the entries made since the last flush into the ledger.
 */
export abstract class AccountGenerator {
  readonly prng: Prng
  #seq = 0
  /** Signed pence: opening balance plus every entry generated so far, booked or not. */
  projected: number
  /** Entries generated since the last `flush()`. */
  #batch: LedgerEntry[] = []

  constructor(
    readonly accountId: string,
    readonly spec: AccountSpec,
    readonly calendar: Calendar,
    /** Distinguishes histories of different anchors (part of every transaction id). */
    readonly anchorKey: string,
    /** The first day of this account's history (day index). */
    readonly startDay: number,
    openingPence: number,
  ) {
    this.prng = new Prng(spec.seed)
    this.projected = openingPence
  }

  /** Generates one day; days are generated in order, each exactly once. */
  abstract generateDay(day: number): void

  /** Records an entry (any day, also a future one) and returns it. */
  add(input: NewEntry): LedgerEntry {
    const seq = this.#seq++
    const entry: LedgerEntry = { ...input, seq, balanceAfter: 0 }
    this.projected += entry.pence
    this.#batch.push(entry)
    this.onAdd(entry)
    return entry
  }

  protected onAdd(_entry: LedgerEntry): void {}

  /** Returns and clears the entries generated since the last call. */
  flush(): LedgerEntry[] {
    const out = this.#batch
    this.#batch = []
    return out
  }

  /** Expected number of card purchases today. */
  protected purchaseRate(spend: SpendSpec, day: number, damped: boolean): number {
    return spend.perDay * WEEKDAY_FACTOR[this.calendar.weekday(day)]! * (damped ? 0.35 : 1)
  }

  /** A realistic time of day for a card purchase: mostly 07:00-22:00, busiest around lunch and evening. */
  protected purchaseTime(day: number): number {
    const hour = this.prng.weighted([7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22], (h) =>
      h === 12 || h === 13 || h === 18 || h === 19 ? 3 : h === 7 || h === 22 ? 0.6 : 1.5,
    )
    return this.calendar.at(day, hour, this.prng.int(0, 3599))
  }

  /** When a card transaction authorised at `authAt` books: a few days later, in the early-morning batch. */
  protected bookingTime(authAt: number, lag: [number, number]): number {
    const day = this.calendar.dayOf(authAt) + this.prng.int(lag[0], lag[1])
    return this.calendar.at(day, 4, this.prng.int(0, 7199))
  }

  /** How the card was presented: contactless up to 100 GBP, chip and PIN above, or the merchant's channel. */
  protected cardAuth(merchant: MerchantSpec, pence: number): NonNullable<LedgerEntry['cardAuth']> {
    if (merchant.auth) return merchant.auth
    if (pence > 10_000) return 'PIN'
    return this.prng.chance(0.82) ? 'Contactless' : 'PIN'
  }

  /** A 23-digit acquirer reference number, unique per card transaction. */
  protected arn(): string {
    return `7${this.prng.digits(22)}`
  }

  /** A Faster Payments id style reference, unique per payment. */
  protected fpsReference(): string {
    return `FP${this.prng.digits(10)}${String.fromCharCode(65 + this.prng.int(0, 25))}${this.prng.digits(5)}`
  }

  protected isFirstDay(day: number): boolean {
    return day === this.startDay
  }
}
