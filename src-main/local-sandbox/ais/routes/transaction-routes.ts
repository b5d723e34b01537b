import type { Context } from 'koa'
import { ObApiError } from '../../http/ob-error.ts'
import type { BankAccount } from '../ais-bank.ts'
import type { AisAccess } from '../access/data-access.ts'
import { bookingWindow, type BookingWindow } from '../access/history-window.ts'
import { paginate } from '../query/pagination.ts'
import { parseFilterDateTime, parsePage, readQuery } from '../query/query-params.ts'
import type { LedgerEntry } from '../seed/ledger.ts'
import { iso } from '../views/format.ts'
import { transactionJson } from '../views/transaction-view.ts'
import { access, bankAccount, bankAccounts, countPsuAbsent, rule } from './account-routes.ts'
import type { AisDeps, Route } from './route-kit.ts'
import { findStatement } from './statement-routes.ts'

const TRANSACTIONS = (name: string, psuAbsentAllowed = false) =>
  rule(name, 'ReadTransactionsBasic or ReadTransactionsDetail (with ReadTransactionsCredits and/or ReadTransactionsDebits)', (p) => p.any('Transactions'), psuAbsentAllowed)

export const TRANSACTION_RULES = {
  bulk: TRANSACTIONS('GET /transactions'),
  account: TRANSACTIONS('GET /accounts/{AccountId}/transactions', true),
  statement: TRANSACTIONS('GET /accounts/{AccountId}/statements/{StatementId}/transactions'),
}

interface Item {
  entry: LedgerEntry
  account: BankAccount
}

/**
 * The account's transactions visible at `nowMs` whose BookingDateTime lies in `window`, newest first
 * (by BookingDateTime; a pending transaction's is its expected booking date), keeping only the directions
 * (credits, debits) the consent grants.
 */
export function selectTransactions(account: BankAccount, window: { from: number; to: number }, nowMs: number, dirs: { credits: boolean; debits: boolean }): Item[] {
  const l = account.ledger
  const lo = l.firstBookingAtOrAfter(window.from)
  const hi = l.firstBookingAfter(window.to)
  const out: Item[] = []
  for (let i = hi - 1; i >= lo; i--) {
    const entry = l.entries[i]!
    if (entry.authAt > nowMs) continue
    if (entry.pence >= 0 ? !dirs.credits : !dirs.debits) continue
    out.push({ entry, account })
  }
  return out
}

/** Newest first across accounts (booking time, then account and generation order for ties). */
function mergeNewestFirst(lists: Item[][]): Item[] {
  if (lists.length === 1) return lists[0]!
  return lists.flat().sort((a, b) => b.entry.bookAt - a.entry.bookAt || a.account.account.accountId.localeCompare(b.account.account.accountId) || b.entry.seq - a.entry.seq)
}

interface Filters {
  params: Record<string, string>
  from?: number
  to?: number
  page: number
}

function readFilters(ctx: Context): Filters {
  const q = readQuery(ctx, ['fromBookingDateTime', 'toBookingDateTime', 'page'])
  const from = q.fromBookingDateTime !== undefined ? parseFilterDateTime('fromBookingDateTime', q.fromBookingDateTime, false) : undefined
  const to = q.toBookingDateTime !== undefined ? parseFilterDateTime('toBookingDateTime', q.toBookingDateTime, true) : undefined
  if (from !== undefined && to !== undefined && from > to) {
    throw new ObApiError(400, { code: 'U003', path: 'toBookingDateTime', message: `toBookingDateTime ${q.toBookingDateTime} is before fromBookingDateTime ${q.fromBookingDateTime}` })
  }
  const page = parsePage(q.page)
  const { page: _page, ...params } = q
  return { params, from, to, page }
}

/** `Meta` of a transactions page: the page count and the effective window (see docs/local-sandbox/ais.md). */
function meta(totalPages: number, window: BookingWindow, accounts: BankAccount[], a: AisAccess): Record<string, unknown> {
  const start = Math.min(...accounts.map((x) => x.ledger.startsAt))
  const consentTo = a.consent.transactionToDateTime ? Date.parse(a.consent.transactionToDateTime) : Infinity
  let last = -Infinity
  for (const x of accounts) {
    const l = x.ledger
    for (let i = l.firstBookingAfter(consentTo) - 1; i >= 0; i--) {
      if (l.entries[i]!.authAt <= a.nowMs) {
        last = Math.max(last, l.entries[i]!.bookAt)
        break
      }
    }
  }
  const first = Math.max(window.floor, start)
  return {
    TotalPages: totalPages,
    ...(Number.isFinite(first) ? { FirstAvailableDateTime: iso(first) } : {}),
    LastAvailableDateTime: iso(Number.isFinite(last) ? Math.max(last, first) : Math.min(a.nowMs, consentTo)),
  }
}

function sendPage(ctx: Context, deps: AisDeps, a: AisAccess, items: Item[], f: Filters, window: BookingWindow, accounts: BankAccount[], onPage: () => void): void {
  const page = paginate(items.length, f.page, `${deps.sandbox.addresses.baseUrl}${ctx.path}`, f.params)
  onPage()
  const transactions = new Array<string>(page.end - page.start)
  for (let i = page.start; i < page.end; i++) transactions[i - page.start] = transactionJson(items[i]!.entry, items[i]!.account, a.permissions, a.nowMs)
  ctx.status = 200
  ctx.type = 'application/json; charset=utf-8'
  ctx.body = `{"Data":{"Transaction":[${transactions.join(',')}]},"Links":${JSON.stringify(page.links)},"Meta":${JSON.stringify(meta(page.totalPages, window, accounts, a))}}`
}

async function accountTransactions(ctx: Context, p: Record<string, string>, deps: AisDeps): Promise<void> {
  const a = await access(ctx, deps, TRANSACTION_RULES.account)
  const acc = bankAccount(deps, a, p.AccountId!)
  const f = readFilters(ctx)
  const window = bookingWindow(a.consent, a.nowMs, f)
  const items = selectTransactions(acc, window, a.nowMs, a.permissions.transactionDirections)
  sendPage(ctx, deps, a, items, f, window, [acc], () =>
    countPsuAbsent(deps, a, `${acc.account.accountId}|transactions`, `GET /accounts/${acc.account.accountId}/transactions`, f.page > 1))
}

async function bulkTransactions(ctx: Context, _p: Record<string, string>, deps: AisDeps): Promise<void> {
  const a = await access(ctx, deps, TRANSACTION_RULES.bulk)
  const f = readFilters(ctx)
  const window = bookingWindow(a.consent, a.nowMs, f)
  const accounts = bankAccounts(deps, a)
  const items = mergeNewestFirst(accounts.map((acc) => selectTransactions(acc, window, a.nowMs, a.permissions.transactionDirections)))
  sendPage(ctx, deps, a, items, f, window, accounts, () => {})
}

async function statementTransactions(ctx: Context, p: Record<string, string>, deps: AisDeps): Promise<void> {
  const a = await access(ctx, deps, TRANSACTION_RULES.statement)
  const acc = bankAccount(deps, a, p.AccountId!)
  const statement = findStatement(deps, a, acc, p.StatementId!)
  const f = readFilters(ctx)
  const base = bookingWindow(a.consent, a.nowMs, f)
  const window = { ...base, from: Math.max(base.from, statement.start), to: Math.min(base.to, statement.end - 1) }
  const items = selectTransactions(acc, window, a.nowMs, a.permissions.transactionDirections)
  sendPage(ctx, deps, a, items, f, { ...window, floor: Math.max(window.floor, statement.start) }, [acc], () => {})
}

export const transactionRoutes: Route[] = [
  { method: 'GET', path: '/transactions', handler: bulkTransactions },
  { method: 'GET', path: '/accounts/{AccountId}/transactions', handler: accountTransactions },
  { method: 'GET', path: '/accounts/{AccountId}/statements/{StatementId}/transactions', handler: statementTransactions },
]
