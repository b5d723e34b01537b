import { describe, expect, it } from 'vitest'
import {
  keepTransactions,
  keptRows,
  pageTransactions,
  rowsOf,
  type KeptTransactions,
  type TransactionsOutput,
} from '../../../../src-main/flows/ais/transaction-rows.ts'
import { caught } from '../flow-fixture.ts'

function tx(id: string, status: 'BOOK' | 'PDNG', amount: string) {
  return {
    TransactionId: id,
    Status: status,
    CreditDebitIndicator: 'Debit',
    BookingDateTime: '2026-01-02T10:00:00Z',
    Amount: { Amount: amount, Currency: 'GBP' },
    TransactionInformation: `tx ${id}`,
  }
}

/** Pages as the exchange log keeps them: response bodies by exchange id. */
function log(pages: Record<string, unknown[]>) {
  const bodies = new Map(
    Object.entries(pages).map(([id, list]) => [
      id,
      new TextEncoder().encode(JSON.stringify({ Data: { Transaction: list }, Links: { Self: 'x' } })),
    ]),
  )
  let reads = 0
  return {
    responseBody: (id: string) => {
      reads++
      return bodies.get(id)
    },
    reads: () => reads,
  }
}

describe('transaction rows, built from the exchange log on demand', () => {
  it('builds the rows of every kept page once, with booked rows showing the pending id they replaced', () => {
    const l = log({ e1: [tx('t1', 'BOOK', '1.00'), tx('t2', 'BOOK', '2.00')], e2: [tx('t3', 'PDNG', '3.00')] })
    const kept: KeptTransactions = {
      exchangeIds: ['e1', 'e2'],
      responseBody: l.responseBody,
      matches: new Map([['t2', 'p-old']]),
    }
    const rows = rowsOf(kept, 'acc-1')
    expect(rows.map((r) => r.transactionId)).toEqual(['t1', 't2', 't3'])
    expect(rows.find((r) => r.transactionId === 't2')!.matchedPendingId).toBe('p-old')
    expect(rows.find((r) => r.transactionId === 't1')!.matchedPendingId).toBeUndefined()
    expect(kept.exchangeIds).toBeUndefined()
    expect(rowsOf(kept, 'acc-1')).toBe(rows)
    expect(l.reads()).toBe(2)
  })

  it('finds the rows of an output by account; none for an output or account whose pages were not kept', () => {
    const l = log({ e1: [tx('t1', 'BOOK', '1.00')] })
    const output: TransactionsOutput = {
      'acc-1': { total: 1, pending: 0, pages: 1, stoppedBecause: 'last-page', matches: [] },
    }
    keepTransactions(
      output,
      new Map([['acc-1', { exchangeIds: ['e1'], responseBody: l.responseBody, matches: new Map() }]]),
    )
    expect(keptRows(output, 'acc-1').map((r) => r.transactionId)).toEqual(['t1'])
    expect(keptRows(output, 'acc-2')).toEqual([])
    expect(keptRows({ ...output }, 'acc-1')).toEqual([])
  })

  it('a page the log no longer holds says which, and that re-running the step reads it afresh', async () => {
    const l = log({ e1: [tx('t1', 'BOOK', '1.00')] })
    const kept = { exchangeIds: ['e1', 'gone'], responseBody: l.responseBody, matches: new Map() }
    const err = await caught(() => rowsOf(kept, 'acc-1'))
    expect(err.code).toBe('NOT_FOUND')
    expect(err.what).toContain('page 2 of 2')
    expect(err.fix).toMatch(/Transactions step again/)
  })

  it('Data.Transaction must be a list when present; an absent one is no transactions', async () => {
    expect(pageTransactions({ Data: {} } as never, 'Page 1')).toEqual([])
    const page = { Data: { Transaction: { TransactionId: 't1' } } } as never
    const err = await caught(() => pageTransactions(page, 'Page 3 of acc-1'))
    expect(err.code).toBe('BANK_ANSWER_INVALID')
    expect(err.what).toBe('Page 3 of acc-1: Data.Transaction is not a list.')
  })
})
