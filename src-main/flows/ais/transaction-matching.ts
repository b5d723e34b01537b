import type { TransactionViewDto } from '../../contract/ais-data.ts'

/** A v4.0 transaction as it comes back (only the fields the data views show). */
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

/** What a booked transaction must share with the pending one it replaced. */
function signature(t: TransactionViewDto): string {
  return [
    t.creditDebitIndicator,
    Number(t.amount).toFixed(2),
    t.currency,
    t.reference ?? '',
    (t.description ?? '').trim().toLowerCase(),
  ].join('|')
}

/**
 * Matches booked transactions to the pending ones they replaced. The bank's spec warns that a
 * TransactionId may change on booking, so a client must not key on it: a pending transaction seen earlier
 * (`previouslyPending`) that no longer appears as pending is matched to a booked one with the same
 * direction, amount, currency, reference and narrative (merchant name, else transaction information),
 * booked within 10 days of it. Each pending transaction matches at most one booked transaction.
 * Returns booked id -> pending id.
 */
export function matchPendingToBooked(
  current: readonly TransactionViewDto[],
  previouslyPending: readonly TransactionViewDto[],
): Map<string, string> {
  const stillPending = new Set(current.filter((t) => t.status === 'PDNG').map((t) => t.transactionId))
  const gone = previouslyPending.filter((p) => p.status === 'PDNG' && !stillPending.has(p.transactionId))
  const matches = new Map<string, string>()
  // Nothing pending has disappeared: nothing to match (and no signature of every booked transaction to build).
  if (gone.length === 0) return matches
  const previousIds = new Set(previouslyPending.map((p) => p.transactionId))
  const goneSignatures = gone.map(signature)
  const used = new Set<string>()
  for (const booked of current) {
    if (booked.status !== 'BOOK' || !booked.transactionId || previousIds.has(booked.transactionId)) continue
    const sig = signature(booked)
    const candidate = gone.find(
      (p, i) =>
        p.transactionId &&
        !used.has(p.transactionId) &&
        goneSignatures[i] === sig &&
        Math.abs(Date.parse(booked.bookingDateTime) - Date.parse(p.bookingDateTime)) <= MATCH_WINDOW_MS,
    )
    if (candidate?.transactionId) {
      used.add(candidate.transactionId)
      matches.set(booked.transactionId, candidate.transactionId)
    }
  }
  return matches
}

/** The view of a transaction for the data views (`matchedPendingId` is set once matching has run). */
export function toTransactionView(t: ObTransaction): TransactionViewDto {
  return {
    transactionId: t.TransactionId ?? '',
    status: t.Status,
    bookingDateTime: t.BookingDateTime,
    amount: t.Amount.Amount,
    currency: t.Amount.Currency,
    creditDebitIndicator: t.CreditDebitIndicator,
    description: t.MerchantDetails?.MerchantName ?? t.TransactionInformation,
    reference: t.TransactionReference,
    matchedPendingId: undefined,
  }
}
