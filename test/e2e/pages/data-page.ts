import { expect, type Locator, type Page, type Route } from '@playwright/test'

/** Account data: accounts and balances, the one transactions table with its filters and exports. */
export class DataPage {
  constructor(readonly page: Page) {}

  table(): Locator {
    return this.page.getByRole('table', { name: 'Transactions table' })
  }

  /** The scrolling body of the table (`data-count`: rows after the filters). */
  body(): Locator {
    return this.page.getByRole('rowgroup', { name: 'Transaction rows' })
  }

  rows(): Locator {
    return this.body().getByRole('row')
  }

  /** "n of m transactions shown" with `data-shown`, `data-total`, `data-filter-ms`. */
  count(): Locator {
    return this.page.getByLabel('Transactions shown')
  }

  filters(): Locator {
    return this.page.getByRole('search', { name: 'Filter transactions' })
  }

  search(): Locator {
    return this.filters().getByLabel('Search transactions')
  }

  columnHeader(name: string): Locator {
    return this.table().getByRole('columnheader', { name: new RegExp(`^${name}`) })
  }

  async expectShown(shown: number, total?: number): Promise<void> {
    await expect(this.count()).toHaveAttribute('data-shown', String(shown))
    if (total !== undefined) await expect(this.count()).toHaveAttribute('data-total', String(total))
  }

  accountsSearch(): Locator {
    return this.page.getByLabel('Search accounts and balances')
  }

  accountsTable(): Locator {
    return this.page.getByRole('table', { name: 'Accounts' })
  }
}

interface TxView {
  transactionId: string
  status: string
  matchedPendingId?: string
  bookingDateTime: string
}
interface AccountData {
  accountId: string
  transactions: { items: TxView[]; total: number }
}

/**
 * Grows the answer of `ais.accountData` to `target` transactions: the sandbox's seed gives about 1,300 per
 * account, so the real rows (read by the real console from the real sandbox) are repeated, each copy with
 * its own id (`<id>~<n>`) and booked one day earlier per round, without the copy claiming a pending match.
 * The rows of the real answer stay as they are, first. Answers how many of the rows handed over are pending
 * (how many the seed leaves pending depends on the day the sandbox's clock shows: it may be none).
 */
export async function growAccountData(page: Page, target: number): Promise<{ pending: number }> {
  const seen = { pending: 0 }
  await page.route('**/api/call/ais.accountData', async (route: Route) => {
    const response = await route.fetch()
    const body = (await response.json()) as { ok: boolean; value?: AccountData[] }
    if (!body.ok || !body.value?.length) return route.fulfill({ response })
    const real = body.value.flatMap((a) => a.transactions.items.map((t) => [a, t] as const))
    let total = real.length
    for (let round = 1; total < target; round++) {
      for (const [account, t] of real) {
        if (total >= target) break
        const day = Date.parse(t.bookingDateTime) - round * 86_400_000
        const { matchedPendingId: _m, ...rest } = t
        account.transactions.items.push({
          ...rest,
          transactionId: `${t.transactionId}~${round}`,
          bookingDateTime: new Date(day).toISOString(),
        })
        account.transactions.total++
        total++
      }
    }
    seen.pending = body.value.reduce((n, a) => n + a.transactions.items.filter((t) => t.status === 'PDNG').length, 0)
    await route.fulfill({ response, json: body })
  })
  return seen
}
