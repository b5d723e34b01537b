import { hash128, sequenceId } from './prng.ts'

/**
 * One account's transactions, ordered by booking time, with running booked balances: the generated
 * history, plus the transactions the sandbox posts itself (its PIS payments, see `AccountLedger.post`). An
 * entry is visible from its authorisation time (`authAt`); it is pending until `bookAt` and booked from then on.
 */

export type ProprietaryCode =
  | 'DEB'
  | 'CPT'
  | 'DD'
  | 'SO'
  | 'FPO'
  | 'FPI'
  | 'BGC'
  | 'CHQ'
  | 'PURCHASE'
  | 'REFUND'
  | 'PAYMENT'
  | 'INTEREST'
  | 'CASHBACK'

export interface Counterparty {
  name: string
  /** Sort code and account number (14 digits), or the IBAN when `scheme` says so, when known. */
  account?: string
  /** The scheme of `account`: `UK.OBIE.SortCodeAccountNumber` unless stated. */
  scheme?: 'UK.OBIE.SortCodeAccountNumber' | 'UK.OBIE.IBAN'
}

export interface LedgerEntry {
  /**
   * Generation order within the account: breaks ties in booking order. Posted entries (see
   * `AccountLedger.post`) count from `POSTED_SEQ_BASE`, after every generated one.
   */
  seq: number
  /**
   * A posted entry's own key of its transaction ids (a hash of what it posts, e.g. the PIS payment's id);
   * generated entries derive theirs from the ledger's key and `seq`.
   */
  idKey?: readonly [number, number, number, number]
  /** Sandbox ms: when the transaction happened (card authorisation, payment instruction). */
  authAt: number
  /** Sandbox ms: when it is booked. Equal to `authAt` for transactions that book at once. */
  bookAt: number
  /** Signed pence: positive credits the account, negative debits it. */
  pence: number
  code: ProprietaryCode
  btc: { Code: string; SubCode: string }
  /** The narrative (TransactionInformation). */
  info: string
  /** Unique reference of the underlying transaction, the same while pending and once booked. */
  reference: string
  /** The payer's reference of a transfer (standing order, Faster Payment out). */
  remittance?: string
  merchant?: { name: string; mcc: string; town: string; country: string }
  /** A card transaction: the authorisation type at the terminal. */
  cardAuth?: 'ConsumerDevice' | 'Contactless' | 'None' | 'PIN'
  creditor?: Counterparty
  debtor?: Counterparty
  fx?: { currency: string; minor: number; ratePerGbp: number }
  /** The standing order or direct debit that produced it. */
  mandateId?: string
  beneficiaryId?: string
  /** Sandbox ms when a scheduled payment was set up (it is listed as scheduled until it executes). */
  scheduledAt?: number
  /** The card statement whose period contains the booking, and when that statement is issued. */
  statement?: { id: string; reference: string; issuedAt: number }
  /** Booked balance of the account right after this entry books (signed pence). */
  balanceAfter: number
  /** Serialised views of this entry, by variant (state and permissions): see `transactionJson`. */
  viewCache?: Array<string | undefined>
}

/** The TransactionId of an entry: one while it is pending, another once it is booked (the bank's rule). */
export function transactionId(ledger: AccountLedger, e: LedgerEntry, pending: boolean): string {
  const id = e.idKey ? sequenceId(e.idKey, 0, pending ? 2 : 1) : sequenceId(ledger.idKey, e.seq, pending ? 2 : 1)
  return `${pending ? 'ptx' : 'tx'}-${id}`
}

/** `seq` of the first posted entry of a ledger: far above any generated entry's. */
export const POSTED_SEQ_BASE = 2 ** 40

/** What `AccountLedger.post` needs: an entry without its order, ids and balance. */
export type PostedEntry = Omit<LedgerEntry, 'seq' | 'idKey' | 'balanceAfter' | 'viewCache'>

function byBooking(a: LedgerEntry, b: LedgerEntry): number {
  return a.bookAt - b.bookAt || a.seq - b.seq
}

export class AccountLedger {
  /** Sorted by booking time, then generation order. */
  readonly entries: LedgerEntry[] = []
  /** Longest pending period of any entry, ms: bounds the scan for pending entries. */
  maxLagMs = 0
  /**
   * Changes with every change of the entries (generated ones added, one posted): whatever was derived
   * from the entries (a transactions page) is stale once it differs.
   */
  revision = 0
  /** The posted entries, by key (one post per key). */
  readonly #posted = new Map<string, LedgerEntry>()

  /** Key of the account's transaction ids: a hash of the account id and the history's anchor. */
  readonly idKey: readonly [number, number, number, number]

  constructor(
    readonly accountId: string,
    /** Booked balance before the first entry (signed pence). */
    readonly openingPence: number,
    /** Sandbox ms of the first day of history. */
    readonly startsAt: number,
    anchorKey: string,
  ) {
    this.idKey = hash128(`${accountId}|${anchorKey}`)
  }

  /**
   * Adds newly generated entries and recomputes running balances. Generated entries book after every
   * booked one in practice (the generator runs ahead of the clock), so balances of booked entries never
   * change; posted entries already in the ledger keep their place and push later balances down.
   */
  add(entries: LedgerEntry[]): void {
    if (!entries.length) return
    for (const e of entries) {
      this.entries.push(e)
      this.maxLagMs = Math.max(this.maxLagMs, e.bookAt - e.authAt)
    }
    this.entries.sort(byBooking)
    this.#rebalanceFrom(0)
    this.revision++
  }

  /**
   * Posts a transaction that does not come from the generator (a payment made through the sandbox's
   * PIS) at its place in booking order, once per `key` (a second post of the same key returns the first
   * entry unchanged). Running balances of every later entry include it, and their serialised views are
   * dropped; the generated entries themselves do not change. Its TransactionIds derive from `key`.
   */
  post(key: string, input: PostedEntry): LedgerEntry {
    const known = this.#posted.get(key)
    if (known) return known
    const entry: LedgerEntry = {
      ...input,
      seq: POSTED_SEQ_BASE + this.#posted.size,
      idKey: hash128(`${this.accountId}|posted|${key}`),
      balanceAfter: 0,
    }
    this.#posted.set(key, entry)
    let lo = 0
    let hi = this.entries.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (byBooking(this.entries[mid]!, entry) < 0) lo = mid + 1
      else hi = mid
    }
    this.entries.splice(lo, 0, entry)
    this.maxLagMs = Math.max(this.maxLagMs, entry.bookAt - entry.authAt)
    this.#rebalanceFrom(lo)
    this.revision++
    return entry
  }

  /** Whether an entry was posted under `key`. */
  hasPosted(key: string): boolean {
    return this.#posted.has(key)
  }

  /**
   * Recomputes running balances from index `from` on. An entry whose balance changes loses its cached
   * views (the booked view shows the running balance).
   */
  #rebalanceFrom(from: number): void {
    let balance = from === 0 ? this.openingPence : this.entries[from - 1]!.balanceAfter
    for (let i = from; i < this.entries.length; i++) {
      const e = this.entries[i]!
      balance += e.pence
      if (e.balanceAfter !== balance) {
        e.balanceAfter = balance
        e.viewCache = undefined
      }
    }
  }

  /** Index of the first entry booking at or after `t` (binary search). */
  firstBookingAtOrAfter(t: number): number {
    let lo = 0
    let hi = this.entries.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (this.entries[mid]!.bookAt < t) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  /** Index of the first entry booking after `t`. */
  firstBookingAfter(t: number): number {
    let lo = 0
    let hi = this.entries.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (this.entries[mid]!.bookAt <= t) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  /** Booked balance at time `t` (signed pence). */
  bookedBalanceAt(t: number): number {
    const i = this.firstBookingAfter(t)
    return i === 0 ? this.openingPence : this.entries[i - 1]!.balanceAfter
  }

  /** Entries authorised at or before `t` and not yet booked at `t`. */
  pendingAt(t: number): LedgerEntry[] {
    const out: LedgerEntry[] = []
    for (let i = this.firstBookingAfter(t); i < this.entries.length; i++) {
      const e = this.entries[i]!
      if (e.bookAt - this.maxLagMs > t) break
      if (e.authAt <= t) out.push(e)
    }
    return out
  }
}
