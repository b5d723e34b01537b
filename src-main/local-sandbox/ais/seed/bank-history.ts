import type { PsuDirectory } from '../../psus.ts'
import type { AccountGenerator } from './account-generator.ts'
import { CardAccountGenerator, type StatementRecord } from './card-account-generator.ts'
import type { Catalogue } from './catalogue.ts'
import { Calendar } from './calendar.ts'
import { CurrentAccountGenerator } from './current-account-generator.ts'
import { AccountLedger } from './ledger.ts'

/** Accounts generated together, day by day, and the first day not generated yet. */
interface GenerationGroup {
  generators: AccountGenerator[]
  nextDay: number
}

/**
 * The generated history of every AIS-visible account (current accounts and credit cards), day by day
 * from `historyDays` before the anchor. Generation runs ahead of the sandbox clock by `futureDays`:
 * future entries are invisible until their time comes, but they let pending transactions book, standing
 * orders know their next payment and scheduled payments show before they execute. As the clock moves,
 * `ensure(now)` generates further days; each account draws from its own seeded PRNG in day order, so
 * the history is the same however the generation is split: by time, and by account. Accounts are generated
 * in groups that share nothing with each other (a credit card with the current account that collects its
 * repayment; any other account alone), so `ensure(now, accountIds)` generates only the groups of those
 * accounts: reading one customer's accounts need not generate every customer's (the history of the five
 * AIS accounts took 60-70 ms of a fresh process's first read, one customer's two about 30).
 */
export class BankHistory {
  readonly calendar: Calendar
  readonly #ledgers = new Map<string, AccountLedger>()
  readonly #cards = new Map<string, CardAccountGenerator>()
  /** Each account's group. */
  readonly #groups = new Map<string, GenerationGroup>()
  readonly #futureDays: number

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
        this.#group(payer ? [g, payer.generator] : [g])
      }
    }
    for (const g of currents.values()) if (!this.#groups.has(g.accountId)) this.#group([g])
    for (const g of [...this.#cards.values(), ...currents.values()]) {
      this.#ledgers.set(
        g.accountId,
        new AccountLedger(g.accountId, g.projected, this.calendar.dayStart(g.startDay), anchorKey),
      )
    }
  }

  /**
   * Puts `generators` in one group, with the groups any of them is in already (a current account collecting
   * two cards' repayments), cards first: a card's statement schedules the repayment its current account collects.
   */
  #group(generators: AccountGenerator[]): void {
    const all = new Set(generators.flatMap((g) => this.#groups.get(g.accountId)?.generators ?? [g]))
    const members = [...all].sort((a, b) => Number(this.#cards.has(b.accountId)) - Number(this.#cards.has(a.accountId)))
    const group = { generators: members, nextDay: Math.min(...members.map((g) => g.startDay)) }
    for (const g of members) this.#groups.set(g.accountId, group)
  }

  /**
   * Generates the history up to `futureDays` after the day of `nowMs` (no-op when already there): of every
   * account, or only of the groups of `accountIds` (the others wait until they are asked for).
   */
  ensure(nowMs: number, accountIds?: Iterable<string>): void {
    const until = this.calendar.dayOf(nowMs) + this.#futureDays
    const groups = new Set<GenerationGroup>()
    for (const id of accountIds ?? this.#groups.keys()) {
      const group = this.#groups.get(id)
      if (group) groups.add(group)
    }
    for (const group of groups) this.#generate(group, until)
  }

  #generate(group: GenerationGroup, until: number): void {
    if (group.nextDay > until) return
    for (let day = group.nextDay; day <= until; day++) {
      for (const g of group.generators) if (day >= g.startDay) g.generateDay(day)
    }
    group.nextDay = until + 1
    for (const g of group.generators) this.#ledgers.get(g.accountId)!.add(g.flush())
  }

  ledger(accountId: string): AccountLedger | undefined {
    return this.#ledgers.get(accountId)
  }

  /** All statements of a credit card generated so far (also future ones: filter by `issuedAt`). */
  statements(accountId: string): readonly StatementRecord[] {
    return this.#cards.get(accountId)?.statements ?? []
  }
}
