import { describe, expect, it } from 'vitest'
import type { AccountDataDto, TransactionViewDto } from '../../../../../src-main/contract/ais-data.ts'
import {
  filterRows,
  isFiltered,
  nextSort,
  NO_FILTER,
  sortRows,
  toCsv,
  toJsonExport,
  toRows,
  type TxFilter,
} from '../../../../../src-renderer/features/data/transactions-query.ts'

const tx = (id: string, over: Partial<TransactionViewDto> = {}): TransactionViewDto => ({
  transactionId: id,
  status: 'BOOK',
  bookingDateTime: '2026-11-20T10:00:00+00:00',
  amount: '10.00',
  currency: 'GBP',
  creditDebitIndicator: 'Debit',
  ...over,
})

const account = (accountId: string, items: TransactionViewDto[]): AccountDataDto => ({
  accountId,
  account: {},
  balances: [],
  resources: [],
  transactions: { items, pages: 1, total: items.length, pendingMatched: 0 },
})

const data = [
  account('acc-1', [
    tx('tx-1', { description: 'Coffee shop', amount: '3.20' }),
    tx('tx-2', {
      description: 'Salary',
      amount: '2500.00',
      creditDebitIndicator: 'Credit',
      bookingDateTime: '2026-11-01T08:00:00+00:00',
    }),
    tx('ptx-3', { status: 'PDNG', description: 'Taxi', amount: '18.40', bookingDateTime: '2026-11-25T00:00:00+00:00' }),
  ]),
  account('acc-2', [
    tx('tx-4', {
      description: 'Refund',
      amount: '30.00',
      creditDebitIndicator: 'Credit',
      matchedPendingId: 'ptx-9',
      bookingDateTime: '2026-10-31T23:59:59+00:00',
    }),
    tx('tx-5', { reference: '=HYPERLINK("x")', amount: '99.99' }),
  ]),
]
const rows = toRows(data)
const ids = (list: typeof rows) => list.map((r) => r.transactionId)
const f = (over: Partial<TxFilter>): TxFilter => ({ ...NO_FILTER, ...over })

describe('transactions table rules', () => {
  it("makes one list of every account's rows, debits negative", () => {
    expect(ids(rows)).toEqual(['tx-1', 'tx-2', 'ptx-3', 'tx-4', 'tx-5'])
    expect(rows.map((r) => r.signedAmount)).toEqual([-3.2, 2500, -18.4, 30, -99.99])
    expect(rows[3]!.accountId).toBe('acc-2')
  })

  it('filters by text in id, description, reference, pending id, account and amount', () => {
    expect(ids(filterRows(rows, f({ text: 'coffee' })))).toEqual(['tx-1'])
    expect(ids(filterRows(rows, f({ text: 'PTX-9' })))).toEqual(['tx-4'])
    expect(ids(filterRows(rows, f({ text: 'acc-2' })))).toEqual(['tx-4', 'tx-5'])
    expect(ids(filterRows(rows, f({ text: '2500' })))).toEqual(['tx-2'])
    expect(filterRows(rows, NO_FILTER)).toBe(rows)
  })

  it('filters by an inclusive UTC date range', () => {
    expect(ids(filterRows(rows, f({ from: '2026-11-01' })))).toEqual(['tx-1', 'tx-2', 'ptx-3', 'tx-5'])
    expect(ids(filterRows(rows, f({ to: '2026-10-31' })))).toEqual(['tx-4'])
    expect(ids(filterRows(rows, f({ from: '2026-11-20', to: '2026-11-20' })))).toEqual(['tx-1', 'tx-5'])
  })

  it('filters by absolute amount bounds, credit or debit, status and matched rows; a half-typed bound is no bound', () => {
    expect(ids(filterRows(rows, f({ minAmount: '18.40', maxAmount: '99.99' })))).toEqual(['ptx-3', 'tx-4', 'tx-5'])
    expect(ids(filterRows(rows, f({ minAmount: '1.2.' })))).toHaveLength(5)
    expect(ids(filterRows(rows, f({ indicator: 'Credit' })))).toEqual(['tx-2', 'tx-4'])
    expect(ids(filterRows(rows, f({ status: 'PDNG' })))).toEqual(['ptx-3'])
    expect(ids(filterRows(rows, f({ status: 'matched' })))).toEqual(['tx-4'])
    expect(ids(filterRows(rows, f({ status: 'BOOK', indicator: 'Debit', text: 't' })))).toEqual(['tx-1', 'tx-5'])
  })

  it('sorts by date, amount or text both ways, without changing the input', () => {
    expect(ids(sortRows(rows, { key: 'date', dir: 'desc' }))).toEqual(['ptx-3', 'tx-1', 'tx-5', 'tx-2', 'tx-4'])
    expect(ids(sortRows(rows, { key: 'amount', dir: 'asc' }))).toEqual(['tx-5', 'ptx-3', 'tx-1', 'tx-4', 'tx-2'])
    expect(ids(sortRows(rows, { key: 'description', dir: 'asc' }))[0]).toBe('tx-5')
    expect(ids(rows)).toEqual(['tx-1', 'tx-2', 'ptx-3', 'tx-4', 'tx-5'])
    expect(nextSort({ key: 'date', dir: 'desc' }, 'date')).toEqual({ key: 'date', dir: 'asc' })
    expect(nextSort({ key: 'date', dir: 'asc' }, 'amount')).toEqual({ key: 'amount', dir: 'desc' })
    expect(nextSort({ key: 'date', dir: 'asc' }, 'id')).toEqual({ key: 'id', dir: 'asc' })
  })

  it('exports what is shown as CSV (quoted where needed, formulas defused) and as JSON without computed fields', () => {
    const shown = filterRows(rows, f({ text: 'acc-2' }))
    const csv = toCsv(shown).split('\r\n')
    expect(csv[0]).toBe(
      'accountId,transactionId,status,bookingDateTime,creditDebitIndicator,amount,currency,description,reference,matchedPendingId',
    )
    expect(csv[1]).toBe('acc-2,tx-4,BOOK,2026-10-31T23:59:59+00:00,Credit,30.00,GBP,Refund,,ptx-9')
    expect(csv[2]).toBe('acc-2,tx-5,BOOK,2026-11-20T10:00:00+00:00,Debit,99.99,GBP,,"\'=HYPERLINK(""x"")",')
    expect(csv).toHaveLength(4)
    const json = JSON.parse(toJsonExport(shown)) as Array<Record<string, unknown>>
    expect(json.map((r) => r['transactionId'])).toEqual(['tx-4', 'tx-5'])
    expect(json[0]).toEqual({ ...data[1]!.transactions.items[0], accountId: 'acc-2' })
    expect(isFiltered(NO_FILTER)).toBe(false)
    expect(isFiltered(f({ status: 'PDNG' }))).toBe(true)
  })
})
