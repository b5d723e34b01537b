// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react'
import { createElement } from 'react'
import { afterEach, describe, expect, it } from 'vitest'
import type { AccountDataDto } from '../../../../../src-main/contract/ais-data.ts'
import { AccountCard } from '../../../../../src-renderer/features/data/account-data.tsx'

afterEach(cleanup)

const data: AccountDataDto = {
  accountId: 'acc-1',
  currency: 'GBP',
  account: { AccountId: 'acc-1', Nickname: 'Current' },
  balances: [],
  transactions: {
    items: [
      {
        transactionId: 'ptx-1',
        status: 'PDNG',
        bookingDateTime: '2026-11-24T05:10:00+00:00',
        amount: '12.50',
        currency: 'GBP',
        creditDebitIndicator: 'Debit',
        description: 'Coffee',
      },
      {
        transactionId: 'tx-2',
        status: 'BOOK',
        bookingDateTime: '2026-11-20T05:10:00+00:00',
        amount: '30.00',
        currency: 'GBP',
        creditDebitIndicator: 'Credit',
        description: 'Refund',
        matchedPendingId: 'ptx-2',
      },
    ],
    pages: 1,
    total: 2,
    pendingMatched: 1,
  },
  resources: [],
}

describe('AccountCard transactions', () => {
  it("shows a pending transaction's date as its expected booking date, a booked one as it is", () => {
    render(createElement(AccountCard, { data }))
    const rows = within(screen.getByRole('table', { name: 'Transactions' }))
      .getAllByRole('row')
      .slice(1)
    expect(rows[0]!.getAttribute('data-status')).toBe('PDNG')
    const pendingDate = rows[0]!.querySelector('td')!
    expect(pendingDate.textContent).toMatch(/^expected /)
    expect(pendingDate.querySelector('span')!.getAttribute('title')).toMatch(/expected to book/)
    expect(rows[1]!.querySelector('td')!.textContent).not.toMatch(/expected/)
    expect(rows[1]!.textContent).toContain('was pending as ptx-2')
  })
})
