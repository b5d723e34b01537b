import { describe, expect, it } from 'vitest'
import {
  matchPendingToBooked,
  toTransactionView,
  type ObTransaction,
} from '../../../../src-main/flows/ais/transaction-matching.ts'

const record = (id: string, status: string, date: string, amount = '12.50', info = 'TESCO STORES'): ObTransaction => ({
  TransactionId: id,
  Status: status,
  BookingDateTime: date,
  CreditDebitIndicator: 'Debit',
  Amount: { Amount: amount, Currency: 'GBP' },
  TransactionInformation: info,
})
const tx = (...args: Parameters<typeof record>) => toTransactionView(record(...args))

describe('matchPendingToBooked', () => {
  it('matches a booked transaction under a new id to the pending one that disappeared', () => {
    const before = [tx('p-1', 'PDNG', '2026-01-01T10:00:00Z')]
    const after = [tx('b-9', 'BOOK', '2026-01-03T00:00:00Z'), tx('b-old', 'BOOK', '2025-12-01T00:00:00Z')]
    const m = matchPendingToBooked(after, [...before, tx('b-old', 'BOOK', '2025-12-01T00:00:00Z')])
    expect([...m]).toEqual([['b-9', 'p-1']])
  })

  it('matches on the merchant name when there is one, else the transaction information, ignoring case and spaces', () => {
    const pending = {
      ...record('p-1', 'PDNG', '2026-01-01T10:00:00Z', '9.99', 'CARD PAYMENT'),
      MerchantDetails: { MerchantName: ' Coffee Co ' },
    }
    const booked = {
      ...record('b-1', 'BOOK', '2026-01-02T10:00:00Z', '9.990', 'CARD PAYMENT 0101'),
      MerchantDetails: { MerchantName: 'COFFEE CO' },
    }
    expect([...matchPendingToBooked([toTransactionView(booked)], [toTransactionView(pending)])]).toEqual([
      ['b-1', 'p-1'],
    ])
    expect(
      matchPendingToBooked(
        [tx('b-2', 'BOOK', '2026-01-02T10:00:00Z', '9.99', 'OTHER')],
        [tx('p-2', 'PDNG', '2026-01-01T10:00:00Z', '9.99', 'CARD')],
      ).size,
    ).toBe(0)
  })
})

describe('toTransactionView', () => {
  it('keeps what the data views show of a v4.0 transaction, the merchant name as its description', () => {
    expect(
      toTransactionView({
        ...record('tx-1', 'BOOK', '2026-01-03T00:00:00Z'),
        TransactionReference: 'REF-1',
        MerchantDetails: { MerchantName: 'Tesco' },
      }),
    ).toEqual({
      transactionId: 'tx-1',
      status: 'BOOK',
      bookingDateTime: '2026-01-03T00:00:00Z',
      amount: '12.50',
      currency: 'GBP',
      creditDebitIndicator: 'Debit',
      description: 'Tesco',
      reference: 'REF-1',
      matchedPendingId: undefined,
    })
    expect(toTransactionView(record('tx-2', 'PDNG', '2026-01-03T00:00:00Z')).description).toBe('TESCO STORES')
  })

  it('does not match a pending transaction that is still pending, or a different amount, or one booked weeks later', () => {
    expect(
      matchPendingToBooked(
        [tx('p-1', 'PDNG', '2026-01-01T00:00:00Z'), tx('b-1', 'BOOK', '2026-01-02T00:00:00Z')],
        [tx('p-1', 'PDNG', '2026-01-01T00:00:00Z')],
      ).size,
    ).toBe(0)
    expect(
      matchPendingToBooked(
        [tx('b-1', 'BOOK', '2026-01-02T00:00:00Z', '12.51')],
        [tx('p-1', 'PDNG', '2026-01-01T00:00:00Z')],
      ).size,
    ).toBe(0)
    expect(
      matchPendingToBooked([tx('b-1', 'BOOK', '2026-02-02T00:00:00Z')], [tx('p-1', 'PDNG', '2026-01-01T00:00:00Z')])
        .size,
    ).toBe(0)
  })

  it('matches each pending transaction at most once (two identical coffees)', () => {
    const before = [
      tx('p-1', 'PDNG', '2026-01-01T08:00:00Z', '3.20', 'CAFE'),
      tx('p-2', 'PDNG', '2026-01-01T09:00:00Z', '3.20', 'CAFE'),
    ]
    const after = [
      tx('b-1', 'BOOK', '2026-01-02T00:00:00Z', '3.20', 'CAFE'),
      tx('b-2', 'BOOK', '2026-01-02T00:00:00Z', '3.20', 'CAFE'),
      tx('b-3', 'BOOK', '2026-01-02T00:00:00Z', '3.20', 'CAFE'),
    ]
    const m = matchPendingToBooked(after, before)
    expect(m.size).toBe(2)
    expect(new Set(m.values())).toEqual(new Set(['p-1', 'p-2']))
  })
})
