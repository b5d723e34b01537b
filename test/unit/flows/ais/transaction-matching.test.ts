import { describe, expect, it } from 'vitest'
import { matchPendingToBooked, toTransactionView, type ObTransaction } from '../../../../src-main/flows/ais/transaction-matching.ts'

const tx = (id: string, status: string, date: string, amount = '12.50', info = 'TESCO STORES'): ObTransaction => ({
  TransactionId: id,
  Status: status,
  BookingDateTime: date,
  CreditDebitIndicator: 'Debit',
  Amount: { Amount: amount, Currency: 'GBP' },
  TransactionInformation: info,
})

describe('matchPendingToBooked', () => {
  it('matches a booked transaction under a new id to the pending one that disappeared', () => {
    const before = [tx('p-1', 'PDNG', '2026-01-01T10:00:00Z')]
    const after = [tx('b-9', 'BOOK', '2026-01-03T00:00:00Z'), tx('b-old', 'BOOK', '2025-12-01T00:00:00Z')]
    const m = matchPendingToBooked(after, [...before, tx('b-old', 'BOOK', '2025-12-01T00:00:00Z')])
    expect([...m]).toEqual([['b-9', 'p-1']])
    expect(toTransactionView(after[0]!, m)).toMatchObject({ transactionId: 'b-9', matchedPendingId: 'p-1', status: 'BOOK' })
  })

  it('does not match a pending transaction that is still pending, or a different amount, or one booked weeks later', () => {
    expect(matchPendingToBooked([tx('p-1', 'PDNG', '2026-01-01T00:00:00Z'), tx('b-1', 'BOOK', '2026-01-02T00:00:00Z')], [tx('p-1', 'PDNG', '2026-01-01T00:00:00Z')]).size).toBe(0)
    expect(matchPendingToBooked([tx('b-1', 'BOOK', '2026-01-02T00:00:00Z', '12.51')], [tx('p-1', 'PDNG', '2026-01-01T00:00:00Z')]).size).toBe(0)
    expect(matchPendingToBooked([tx('b-1', 'BOOK', '2026-02-02T00:00:00Z')], [tx('p-1', 'PDNG', '2026-01-01T00:00:00Z')]).size).toBe(0)
  })

  it('matches each pending transaction at most once (two identical coffees)', () => {
    const before = [tx('p-1', 'PDNG', '2026-01-01T08:00:00Z', '3.20', 'CAFE'), tx('p-2', 'PDNG', '2026-01-01T09:00:00Z', '3.20', 'CAFE')]
    const after = [tx('b-1', 'BOOK', '2026-01-02T00:00:00Z', '3.20', 'CAFE'), tx('b-2', 'BOOK', '2026-01-02T00:00:00Z', '3.20', 'CAFE'), tx('b-3', 'BOOK', '2026-01-02T00:00:00Z', '3.20', 'CAFE')]
    const m = matchPendingToBooked(after, before)
    expect(m.size).toBe(2)
    expect(new Set(m.values())).toEqual(new Set(['p-1', 'p-2']))
  })
})
