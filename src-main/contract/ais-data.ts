/** What the AIS flow's data steps bring back, shaped for the data views. */

export interface TransactionViewDto {
  transactionId: string
  status: 'BOOK' | 'PDNG' | string
  bookingDateTime: string
  amount: string
  currency: string
  creditDebitIndicator: 'Credit' | 'Debit'
  description?: string
  reference?: string
  /** A booked transaction matched to the pending one it replaced (the spec: the id may change on booking). */
  matchedPendingId?: string
}

export interface ResourceOutcomeDto {
  /** e.g. `beneficiaries`, `direct-debits`, `offers` */
  resource: string
  status: number
  count: number
  /** Set when the resource is empty because of a product rule (section 7 of the bank's spec). */
  emptyByProductRule?: string
  exchangeId?: string
}

export interface AccountDataDto {
  accountId: string
  accountTypeCode?: string
  nickname?: string
  currency?: string
  /** The OBAccount6 record as returned. */
  account: Record<string, unknown>
  balances: Array<Record<string, unknown>>
  transactions: {
    items: TransactionViewDto[]
    /** Pages fetched by following `Next`. */
    pages: number
    total: number
    /** Pending transactions seen earlier and now booked under another id. */
    pendingMatched: number
  }
  resources: ResourceOutcomeDto[]
}

/** What is left of the PSU-absent allowance (4 calls in 24 hours) for one consent and account. */
export interface PsuAbsentBudgetDto {
  consentId: string
  /** Undefined for the account list itself. */
  accountId?: string
  /** The exempt endpoint counted: `accounts` (the list), `account`, `balances` or `transactions`. */
  endpoint: string
  used: number
  remaining: number
  /** When the oldest counted call leaves the 24-hour window. */
  nextSlotAt?: string
  /** Earliest booking date the bank returns without SCA (90 days back). */
  historyWithoutScaFrom: string
  /** When the oldest counted call leaves the 24-hour window (one access comes back), whenever one is counted. */
  nextReturnAt?: string
  /**
   * How the console counts: per consent, account and endpoint, as the bank counts (`consent-account-endpoint`),
   * or the other reading of the spec, four calls per consent (`consent`; `endpoint` is then `*`).
   */
  keying?: 'consent-account-endpoint' | 'consent'
}
