import type { SandboxContext } from '../context.ts'
import type { PsuDirectory, SeedAccount } from '../psus.ts'
import { BankHistory } from './seed/bank-history.ts'
import type { StatementRecord } from './seed/card-account-generator.ts'
import { loadCatalogue, type AccountSpec, type Catalogue } from './seed/catalogue.ts'
import { loadOrCreateAnchor } from './seed/history-anchor.ts'
import type { AccountLedger, LedgerEntry, PostedEntry } from './seed/ledger.ts'

/** An AIS-visible account with everything the views need about it. */
export interface BankAccount {
  account: SeedAccount
  spec: AccountSpec
  ledger: AccountLedger
  /** The PAN of the card used for card transactions: the credit card itself, or the current account's debit card. */
  cardPan?: string
  cardScheme?: 'VISA' | 'MasterCard'
}

/**
 * The bank's AIS data: the catalogue (products, parties, mandates), and the generated history anchored
 * on the data directory's anchor day. Every read goes through `at(now)`, which first extends the
 * history when the sandbox clock has moved past what was generated.
 */
export class AisBank {
  readonly catalogue: Catalogue
  readonly history: BankHistory
  readonly anchorMs: number
  readonly #accounts = new Map<string, BankAccount>()

  constructor(psus: PsuDirectory, anchorMs: number, catalogue = loadCatalogue(psus)) {
    this.catalogue = catalogue
    this.anchorMs = anchorMs
    this.history = new BankHistory(catalogue, psus, anchorMs)
    for (const psu of psus.psus) {
      for (const account of psu.accounts) {
        const ledger = this.history.ledger(account.accountId)
        const spec = catalogue.accounts[account.accountId]
        if (!ledger || !spec) continue
        const card =
          account.accountTypeCode === 'CARD'
            ? { cardPan: account.identification, cardScheme: spec.card!.scheme }
            : spec.debitCard
              ? { cardPan: spec.debitCard.pan, cardScheme: spec.debitCard.scheme }
              : {}
        this.#accounts.set(account.accountId, { account, spec, ledger, ...card })
      }
    }
  }

  /**
   * Builds the bank for a running sandbox: the anchor from its data directory. The history is generated on
   * the first read (every read goes through `at(now)`, a posting too), not while the sandbox starts, and only
   * of the accounts read (with those their history depends on).
   */
  static async forSandbox(ctx: Pick<SandboxContext, 'psus' | 'store' | 'clock' | 'log'>): Promise<AisBank> {
    const catalogue = loadCatalogue(ctx.psus)
    const anchorMs = await loadOrCreateAnchor(
      ctx.store.documents,
      ctx.clock.nowMs(),
      catalogue.generation.reanchorAfterDays,
      ctx.log,
    )
    return new AisBank(ctx.psus, anchorMs, catalogue)
  }

  /** The latest time a read asked for (`at`): the history of every account read so far covers it. */
  #asOf = Number.NEGATIVE_INFINITY
  /** Accounts read so far: their histories grow as the clock moves, the others' are made when first read. */
  readonly #read = new Set<string>()

  /**
   * Makes sure the history covers `nowMs` (and the days after it that future-looking views need): at once for
   * the accounts read so far, on its first read for any other (`account`, `statements`, `mandateEntries`, `post`).
   */
  at(nowMs: number): this {
    this.#asOf = Math.max(this.#asOf, nowMs)
    if (this.#read.size) this.history.ensure(this.#asOf, this.#read)
    return this
  }

  /** The account's history made up to the time asked for (its group's: see BankHistory.ensure). */
  #ready(accountId: string): void {
    this.#read.add(accountId)
    if (this.#asOf > Number.NEGATIVE_INFINITY) this.history.ensure(this.#asOf, [accountId])
  }

  account(accountId: string): BankAccount | undefined {
    this.#ready(accountId)
    return this.#accounts.get(accountId)
  }

  /**
   * Posts a transaction the sandbox made itself (a payment through its PIS) on the ledger of an account
   * AIS holds, once per `key` (see `AccountLedger.post`). Undefined, and nothing posted, when AIS does not
   * hold the account (savings accounts) or the transaction happened before the first day of its history
   * (the history was re-anchored since: its effect is part of the opening balance).
   */
  post(accountId: string, key: string, entry: PostedEntry): LedgerEntry | undefined {
    this.at(entry.authAt).#ready(accountId)
    const ledger = this.#accounts.get(accountId)?.ledger
    if (!ledger || entry.authAt < ledger.startsAt) return undefined
    return ledger.post(key, entry)
  }

  /** Statements issued at or before `nowMs`, newest first. */
  statements(accountId: string, nowMs: number): StatementRecord[] {
    this.#ready(accountId)
    return this.history
      .statements(accountId)
      .filter((s) => s.issuedAt <= nowMs)
      .reverse()
  }

  /** Entries of a standing order or direct debit, in booking order. */
  mandateEntries(accountId: string, mandateId: string): LedgerEntry[] {
    this.#ready(accountId)
    return this.#accounts.get(accountId)?.ledger.entries.filter((e) => e.mandateId === mandateId) ?? []
  }
}
