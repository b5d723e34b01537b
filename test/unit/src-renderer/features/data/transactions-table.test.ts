// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import { createElement } from 'react'
import { afterEach, describe, expect, it } from 'vitest'
import type { AccountDataDto, TransactionViewDto } from '../../../../../src-main/contract/ais-data.ts'
import { TransactionsTable } from '../../../../../src-renderer/features/data/transactions-table.tsx'
import '../../support/render.ts'

afterEach(cleanup)

const items = (account: string, n: number): TransactionViewDto[] =>
  Array.from({ length: n }, (_, i) => ({
    transactionId: `${account}-tx-${i}`,
    status: i === 0 ? 'PDNG' : 'BOOK',
    bookingDateTime: new Date(Date.UTC(2026, 10, 1) - i * 3_600_000).toISOString(),
    amount: `${i + 1}.00`,
    currency: 'GBP',
    creditDebitIndicator: i % 2 ? 'Credit' : 'Debit',
    description: i === 7 ? 'Coffee' : `Shop ${i}`,
    ...(i === 3 ? { matchedPendingId: `ptx-${account}` } : {}),
  }))
const data: AccountDataDto[] = ['a1', 'a2'].map((id) => ({
  accountId: id,
  account: {},
  balances: [],
  resources: [],
  transactions: { items: items(id, 3000), pages: 30, total: 3000, pendingMatched: 1 },
}))

describe('TransactionsTable', () => {
  it('draws a window of the 6,000 rows, filters, sorts and shows the pending-to-booked matches', () => {
    render(createElement(TransactionsTable, { data }))
    const count = screen.getByLabelText('Transactions shown')
    expect(count.getAttribute('data-shown')).toBe('6000')
    const body = screen.getByRole('rowgroup', { name: 'Transaction rows' })
    expect(within(body).getAllByRole('row').length).toBeLessThan(60)
    fireEvent.change(screen.getByLabelText('Search transactions'), { target: { value: 'coffee' } })
    expect(count.getAttribute('data-shown')).toBe('2')
    fireEvent.change(screen.getByLabelText('Search transactions'), { target: { value: '' } })
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'matched' } })
    expect(count.getAttribute('data-shown')).toBe('2')
    expect(within(body).getAllByRole('row')[0]!.textContent).toContain('was pending as ptx-a')
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'all' } })
    const amountHeader = screen.getByRole('columnheader', { name: /^Amount/ })
    fireEvent.click(within(amountHeader).getByRole('button'))
    expect(amountHeader.getAttribute('aria-sort')).toBe('descending')
    expect(within(body).getAllByRole('row')[0]!.textContent).toContain('£3,000.00')
    expect(count.textContent).toContain(
      '6,000 of 6,000 transactions shown · 60 pages fetched (following Next) · 2 booked transactions matched to their pending id',
    )
  })
})
