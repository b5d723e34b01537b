import type { TransactionViewDto } from '../../contract/ais-data.ts'

/** A v4.0 transaction as it comes back (only the fields matching needs). */
export interface ObTransaction {
  TransactionId?: string
  TransactionReference?: string
  Status: string
  BookingDateTime: string
  CreditDebitIndicator: 'Credit' | 'Debit'
  Amount: { Amount: string; Currency: string }
  TransactionInformation?: string
  MerchantDetails?: { MerchantName?: string }
}

const MATCH_WINDOW_MS = 10 * 86_400_000

function signature(t: ObTransaction): string {
  const text = (t.MerchantDetails?.MerchantName ?? t.TransactionInformation ?? '').trim().toLowerCase()
  return [t.CreditDebitIndicator, Number(t.Amount.Amount).toFixed(2), t.Amount.Currency, t.TransactionReference ?? '', text].join('|')
}

/**
 * Matches booked transactions to the pending ones they replaced. The bank's spec warns that a
 * TransactionId may change on booking, so a client must not key on it: a pending transaction seen earlier
 * (`previouslyPending`) that no longer appears as pending is matched to a booked one with the same
 * direction, amount, currency, reference and narrative, booked within 10 days of it. Each pending
 * transaction matches at most one booked transaction.
 */
export function matchPendingToBooked(current: readonly ObTransaction[], previouslyPending: readonly ObTransaction[]): Map<string, string> {
  const stillPending = new Set(current.filter((t) => t.Status === 'PDNG').map((t) => t.TransactionId))
  const gone = previouslyPending.filter((p) => p.Status === 'PDNG' && !stillPending.has(p.TransactionId))
  const matches = new Map<string, string>()
  // Nothing pending has disappeared: nothing to match (and no signature of every booked transaction to build).
  if (gone.length === 0) return matches
  const previousIds = new Set(previouslyPending.map((p) => p.TransactionId))
  const used = new Set<string>()
  for (const booked of current) {
    if (booked.Status !== 'BOOK' || !booked.TransactionId || previousIds.has(booked.TransactionId)) continue
    const sig = signature(booked)
    const candidate = gone.find(
      (p) => p.TransactionId && !used.has(p.TransactionId) && signature(p) === sig && Math.abs(Date.parse(booked.BookingDateTime) - Date.parse(p.BookingDateTime)) <= MATCH_WINDOW_MS,
    )
    if (candidate?.TransactionId) {
      used.add(candidate.TransactionId)
      matches.set(booked.TransactionId, candidate.TransactionId)
    }
  }
  return matches
}

/** The view of a transaction for the data views, with its matched pending id when there is one. */
export function toTransactionView(t: ObTransaction, matches: ReadonlyMap<string, string>): TransactionViewDto {
  return {
    transactionId: t.TransactionId ?? '',
    status: t.Status,
    bookingDateTime: t.BookingDateTime,
    amount: t.Amount.Amount,
    currency: t.Amount.Currency,
    creditDebitIndicator: t.CreditDebitIndicator,
    description: t.MerchantDetails?.MerchantName ?? t.TransactionInformation,
    reference: t.TransactionReference,
    matchedPendingId: t.TransactionId ? matches.get(t.TransactionId) : undefined,
  }
}
