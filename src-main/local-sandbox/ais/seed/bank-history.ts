import type { PsuDirectory } from '../../psus.ts'
import type { AccountGenerator } from './account-generator.ts'
import { CardAccountGenerator, type StatementRecord } from './card-account-generator.ts'
import type { Catalogue } from './catalogue.ts'
import { Calendar } from './calendar.ts'
import { CurrentAccountGenerator } from './current-account-generator.ts'
import { AccountLedger } from './ledger.ts'

/**
 * The generated history of every AIS-visible account (current accounts and credit cards), day by day
 * from `historyDays` before the anchor. Generation runs ahead of the sandbox clock by `futureDays`:
 * future entries are invisible until their time comes, but they let pending transactions book, standing
 * orders know their next payment and scheduled payments show before they execute. As the clock moves,
 * `ensure(now)` generates further days; each account draws from its own seeded PRNG in day order, so
 * the history is the same however the generation is split.
 */
export class BankHistory {
  readonly calendar: Calendar
  readonly #ledgers = new Map<string, AccountLedger>()
  readonly #cards = new Map<string, CardAccountGenerator>()
  /** Cards first: a card's statement schedules the repayment its current account collects. */
  readonly #generators: AccountGenerator[] = []
  readonly #futureDays: number
  #nextDay: number

  constructor(catalogue: Catalogue, psus: PsuDirectory, anchorMs: number) {
    this.calendar = new Calendar(anchorMs)
    this.#futureDays = catalogue.generation.futureDays
    const anchorKey = new Date(anchorMs).toISOString().slice(0, 10)
    const startDayOf = (openingDate: string) =>
      Math.max(-catalogue.generation.historyDays, this.calendar.dayOf(Date.parse(`${openingDate}T00:00:00Z`)))
    const currents = new Map<string, CurrentAccountGenerator>()
    for (const psu of psus.psus) {
      for (const account of psu.accounts.filter((a) => a.accountTypeCode === 'CACC')) {
        const g = new CurrentAccountGenerator(
          account.accountId,
          catalogue.accounts[account.accountId]!,
          this.calendar,
          anchorKey,
          startDayOf(account.openingDate),
        )
        currents.set(account.accountId, g)
      }
    }
    for (const psu of psus.psus) {
      for (const account of psu.accounts.filter((a) => a.accountTypeCode === 'CARD')) {
        const spec = catalogue.accounts[account.accountId]!
        const repay = spec.card!.repayment
        const payerAccount = repay.mode === 'full' ? psus.account(repay.fromAccountId)?.account : undefined
        const payer =
          repay.mode === 'full' && payerAccount
            ? {
                generator: currents.get(repay.fromAccountId)!,
                name: catalogue.accounts[repay.fromAccountId]!.accountName,
                account: payerAccount.identification,
              }
            : undefined
        const g = new CardAccountGenerator(
          account.accountId,
          spec,
          this.calendar,
          anchorKey,
          startDayOf(account.openingDate),
          account.identification,
          payer,
        )
        this.#cards.set(account.accountId, g)
        this.#generators.push(g)
      }
    }
    this.#generators.push(...currents.values())
    for (const g of this.#generators) {
      this.#ledgers.set(
        g.accountId,
        new AccountLedger(g.accountId, g.projected, this.calendar.dayStart(g.startDay), anchorKey),
      )
    }
    this.#nextDay = Math.min(...this.#generators.map((g) => g.startDay))
  }

  /** Generates the history up to `futureDays` after the day of `nowMs` (no-op when already there). */
  ensure(nowMs: number): void {
    const until = this.calendar.dayOf(nowMs) + this.#futureDays
    if (this.#nextDay > until) return
    for (let day = this.#nextDay; day <= until; day++) {
      for (const g of this.#generators) if (day >= g.startDay) g.generateDay(day)
    }
    this.#nextDay = until + 1
    for (const g of this.#generators) this.#ledgers.get(g.accountId)!.add(g.flush())
  }

  /** Sandbox ms up to which the history is generated (exclusive). */
  get generatedUntil(): number {
    return this.calendar.dayStart(this.#nextDay)
  }

  ledger(accountId: string): AccountLedger | undefined {
    return this.#ledgers.get(accountId)
  }

  /** All statements of a credit card generated so far (also future ones: filter by `issuedAt`). */
  statements(accountId: string): readonly StatementRecord[] {
    return this.#cards.get(accountId)?.statements ?? []
  }
}
