import type { BankAccount } from '../ais-bank.ts'

/** A serialised transactions page and the sandbox-time interval in which it stays exactly right. */
interface CachedPage {
  bytes: Buffer
  /** Sandbox ms: valid from (inclusive) ... */
  fromMs: number
  /** ... to (exclusive): the next moment anything the page shows can change. */
  untilMs: number
  /**
   * Revisions of the accounts' ledgers when it was built: the history grows as the clock moves, and a
   * payment made through the sandbox's PIS is posted on its debtor account at once.
   */
  ledgerRevisions: string
  /** Meta.TotalPages of the list the page belongs to. */
  totalPages: number
}

/** Revisions of the accounts' ledgers, as one string (compared on each hit). */
function ledgerRevisions(accounts: readonly BankAccount[]): string {
  return accounts.length === 1 ? String(accounts[0]!.ledger.revision) : accounts.map((a) => a.ledger.revision).join(',')
}

/**
 * The first sandbox moment after `nowMs` at which a transaction of these accounts changes how it is
 * seen: it appears (`authAt`), books (`bookAt`: a new TransactionId, a running balance) or its card
 * statement is issued (`StatementReference`). Until then every transactions page of these accounts, for
 * a fixed consent window and query, is the same bytes. One pass over the ledgers (about 2,000 entries).
 */
export function nextVisibilityChange(accounts: readonly BankAccount[], nowMs: number): number {
  let next = Infinity
  for (const acc of accounts) {
    for (const e of acc.ledger.entries) {
      if (e.authAt > nowMs && e.authAt < next) next = e.authAt
      if (e.bookAt > nowMs && e.bookAt < next) next = e.bookAt
      const issued = e.statement?.issuedAt
      if (issued !== undefined && issued > nowMs && issued < next) next = issued
    }
  }
  return next
}

/** The start of the next sandbox second after `nowMs` (Meta's date-times have second precision). */
export function nextSecond(nowMs: number): number {
  return Math.floor(nowMs / 1000) * 1000 + 1000
}

/**
 * Serialised transactions pages (UTF-8 bytes, ready for the socket), kept while what they show cannot
 * change. The key names everything a page depends on besides sandbox time (the request's path and
 * query, the consent's transaction window and SCA state, the permissions that shape a transaction);
 * sandbox time enters through the validity interval each page carries (`nextVisibilityChange`, and the
 * next second when Meta or the 90-day floor follow the clock), and the ledgers' revisions (the history
 * grows as the clock moves; a PIS payment is posted the moment it is made). Least recently used pages go first past `maxBytes`.
 *
 * Pages are shared by every consent with the same window and permissions: a transaction's view does
 * not depend on who asks.
 */
export class TransactionPageCache {
  readonly #pages = new Map<string, CachedPage>()
  #bytes = 0

  constructor(readonly maxBytes = 32 * 1024 * 1024) {}

  /** The cached bytes of `key` when still valid at `nowMs` for these accounts, else undefined. */
  get(key: string, nowMs: number, accounts: readonly BankAccount[]): Buffer | undefined {
    return this.lookup(key, nowMs, accounts)?.bytes
  }

  /** `get`, with the page count of the page's list. */
  lookup(
    key: string,
    nowMs: number,
    accounts: readonly BankAccount[],
  ): { bytes: Buffer; totalPages: number } | undefined {
    const page = this.#pages.get(key)
    if (!page) return undefined
    if (nowMs < page.fromMs || nowMs >= page.untilMs || page.ledgerRevisions !== ledgerRevisions(accounts)) {
      this.#delete(key, page)
      return undefined
    }
    // Most recently used last.
    this.#pages.delete(key)
    this.#pages.set(key, page)
    return { bytes: page.bytes, totalPages: page.totalPages }
  }

  /** Keeps `bytes` for `key`, valid from `nowMs` until `untilMs` (exclusive). */
  set(
    key: string,
    bytes: Buffer,
    nowMs: number,
    untilMs: number,
    accounts: readonly BankAccount[],
    totalPages = 1,
  ): void {
    if (untilMs <= nowMs || bytes.length > this.maxBytes) return
    const old = this.#pages.get(key)
    if (old) this.#delete(key, old)
    this.#pages.set(key, { bytes, fromMs: nowMs, untilMs, ledgerRevisions: ledgerRevisions(accounts), totalPages })
    this.#bytes += bytes.length
    for (const [k, p] of this.#pages) {
      if (this.#bytes <= this.maxBytes) break
      this.#delete(k, p)
    }
  }

  /** Pages held, and their bytes (for tests and diagnostics). */
  get size(): { pages: number; bytes: number } {
    return { pages: this.#pages.size, bytes: this.#bytes }
  }

  #delete(key: string, page: CachedPage): void {
    this.#pages.delete(key)
    this.#bytes -= page.bytes.length
  }
}
