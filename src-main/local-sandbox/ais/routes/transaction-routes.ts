import type { Context } from 'koa'
import { ObApiError } from '../../http/ob-error.ts'
import type { BankAccount } from '../ais-bank.ts'
import type { AisAccess } from '../access/data-access.ts'
import { bookingWindow, NO_SCA_HISTORY_MS, type BookingWindow } from '../access/history-window.ts'
import { paginate, PAGE_SIZE } from '../query/pagination.ts'
import { conformance } from '../../conformance/probe.ts'
import { parseFilterDateTime, parsePage, readQuery } from '../query/query-params.ts'
import type { LedgerEntry } from '../seed/ledger.ts'
import { iso } from '../views/format.ts'
import { transactionJson } from '../views/transaction-view.ts'
import { access, bankAccount, bankAccounts, countPsuAbsent, rule } from './account-routes.ts'
import { nextSecond, nextVisibilityChange } from './page-cache.ts'
import type { AisDeps, Route } from './route-kit.ts'
import { findStatement } from './statement-routes.ts'

const TRANSACTIONS = (name: string, psuAbsentAllowed = false) =>
  rule(
    name,
    'ReadTransactionsBasic or ReadTransactionsDetail (with ReadTransactionsCredits and/or ReadTransactionsDebits)',
    (p) => p.any('Transactions'),
    psuAbsentAllowed,
  )

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
 * Indices into the account's ledger of the transactions visible at `nowMs` whose BookingDateTime lies in
 * `window`, newest first (by BookingDateTime; a pending transaction's is its expected booking date),
 * keeping only the directions (credits, debits) the consent grants. No object per transaction: a page
 * materialises only its own hundred.
 */
export function visibleIndices(
  account: BankAccount,
  window: { from: number; to: number },
  nowMs: number,
  dirs: { credits: boolean; debits: boolean },
): Int32Array {
  const l = account.ledger
  const lo = l.firstBookingAtOrAfter(window.from)
  const hi = l.firstBookingAfter(window.to)
  const out = new Int32Array(Math.max(0, hi - lo))
  let n = 0
  for (let i = hi - 1; i >= lo; i--) {
    const entry = l.entries[i]!
    if (entry.authAt > nowMs) continue
    if (entry.pence >= 0 ? !dirs.credits : !dirs.debits) continue
    out[n++] = i
  }
  return out.subarray(0, n)
}

/** The visible transactions of one account (see `visibleIndices`) as items, newest first. */
export function selectTransactions(
  account: BankAccount,
  window: { from: number; to: number },
  nowMs: number,
  dirs: { credits: boolean; debits: boolean },
): Item[] {
  return Array.from(visibleIndices(account, window, nowMs, dirs), (i) => ({
    entry: account.ledger.entries[i]!,
    account,
  }))
}

/** Newest first across accounts (booking time, then account and generation order for ties). */
function mergeNewestFirst(lists: Item[][]): Item[] {
  if (lists.length === 1) return lists[0]!
  return lists
    .flat()
    .sort(
      (a, b) =>
        b.entry.bookAt - a.entry.bookAt ||
        a.account.account.accountId.localeCompare(b.account.account.accountId) ||
        b.entry.seq - a.entry.seq,
    )
}

interface Filters {
  params: Record<string, string>
  from?: number
  to?: number
  page: number
}

function readFilters(ctx: Context): Filters {
  const q = readQuery(ctx, ['fromBookingDateTime', 'toBookingDateTime', 'page'])
  const from =
    q.fromBookingDateTime !== undefined
      ? parseFilterDateTime('fromBookingDateTime', q.fromBookingDateTime, false)
      : undefined
  const to =
    q.toBookingDateTime !== undefined ? parseFilterDateTime('toBookingDateTime', q.toBookingDateTime, true) : undefined
  if (from !== undefined && to !== undefined && from > to) {
    throw new ObApiError(400, {
      code: 'U003',
      path: 'toBookingDateTime',
      message: `toBookingDateTime ${q.toBookingDateTime} is before fromBookingDateTime ${q.fromBookingDateTime}`,
    })
  }
  const page = parsePage(q.page)
  const { page: _page, ...params } = q
  return { params, from, to, page }
}

/**
 * `Meta` of a transactions page: the page count and the effective window (see docs/local-sandbox/ais.md).
 * `followsClock`: a date-time in it moves with the sandbox clock (no transaction to anchor it).
 */
function meta(
  totalPages: number,
  window: BookingWindow,
  accounts: BankAccount[],
  a: AisAccess,
): { meta: Record<string, unknown>; followsClock: boolean } {
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
    meta: {
      TotalPages: totalPages,
      ...(Number.isFinite(first) ? { FirstAvailableDateTime: iso(first) } : {}),
      LastAvailableDateTime: iso(Number.isFinite(last) ? Math.max(last, first) : Math.min(a.nowMs, consentTo)),
    },
    followsClock: !Number.isFinite(last) && a.nowMs < consentTo,
  }
}

/** The transactions a page is cut from: `total` of them, newest first, the `i`th by `at(i)`. */
interface Listing {
  total: number
  at(i: number): Item
}

function listingOf(items: Item[]): Listing {
  return { total: items.length, at: (i) => items[i]! }
}

/** One account's visible transactions without an object per transaction (see `visibleIndices`). */
function accountListing(acc: BankAccount, indices: Int32Array): Listing {
  return { total: indices.length, at: (i) => ({ entry: acc.ledger.entries[indices[i]!]!, account: acc }) }
}

/**
 * Everything a transactions page depends on besides sandbox time and the ledgers: the request (path
 * and query: account, statement, filters, page), the consent's transaction window and SCA state, the
 * permissions that shape a transaction (directions, Detail, ReadPAN), and for the bulk endpoint the
 * consent's accounts. Consents agreeing on all of these see the same bytes.
 */
function pageKey(ctx: Context, a: AisAccess, accounts: BankAccount[]): string {
  const dirs = a.permissions.transactionDirections
  const shape =
    (dirs.credits ? 1 : 0) |
    (dirs.debits ? 2 : 0) |
    (a.permissions.detail('Transactions') ? 4 : 0) |
    (a.permissions.pan ? 8 : 0)
  const c = a.consent
  return `${ctx.path}?${ctx.querystring}|${c.transactionFromDateTime ?? ''}|${c.transactionToDateTime ?? ''}|${a.withSca ? 'sca' : 'nosca'}|${shape}|${accounts.map((x) => x.account.accountId).join(',')}`
}

/**
 * Until when (sandbox ms, exclusive) a page built at `a.nowMs` stays exactly right: the next change of a
 * transaction's visibility; without SCA also the next second (Meta's FirstAvailableDateTime follows the
 * 90-day floor) and the moment the oldest transaction in the window falls below that floor.
 */
function pageValidUntil(a: AisAccess, window: BookingWindow, accounts: BankAccount[], followsClock: boolean): number {
  let until = nextVisibilityChange(accounts, a.nowMs)
  if (followsClock || !a.withSca) until = Math.min(until, nextSecond(a.nowMs))
  if (!a.withSca) {
    for (const acc of accounts) {
      const l = acc.ledger
      const lo = l.firstBookingAtOrAfter(window.from)
      if (lo < l.entries.length) until = Math.min(until, l.entries[lo]!.bookAt + NO_SCA_HISTORY_MS + 1)
    }
  }
  return until
}

function send(ctx: Context, bytes: Buffer): void {
  ctx.status = 200
  ctx.type = 'application/json; charset=utf-8'
  ctx.body = bytes
}

/**
 * Answers one page of the listing. `onPage` runs once the page is known to exist (PSU-absent counting),
 * on every request, cached or not. The serialised page is kept in `deps.pages` while it stays right.
 */
async function sendPage(
  ctx: Context,
  deps: AisDeps,
  a: AisAccess,
  select: () => Listing,
  f: Filters,
  window: BookingWindow,
  accounts: BankAccount[],
  onPage: () => Promise<void>,
): Promise<void> {
  const key = pageKey(ctx, a, accounts)
  // Which list this page belongs to, for the pagination rule: the consent, the path and the filters.
  const listingKey = `${a.consent.consentId} ${ctx.path}?${new URLSearchParams(Object.entries(f.params).sort()).toString()}`
  const cached = deps.pages.lookup(key, a.nowMs, accounts)
  if (cached) {
    await onPage()
    conformance(ctx).page({ listing: listingKey, page: f.page, totalPages: cached.totalPages })
    send(ctx, cached.bytes)
    return
  }
  const listing = select()
  conformance(ctx).page({
    listing: listingKey,
    page: f.page,
    totalPages: Math.max(1, Math.ceil(listing.total / PAGE_SIZE)),
  })
  const page = paginate(listing.total, f.page, `${deps.sandbox.addresses.baseUrl}${ctx.path}`, f.params)
  await onPage()
  const transactions = new Array<string>(page.end - page.start)
  for (let i = page.start; i < page.end; i++) {
    const item = listing.at(i)
    transactions[i - page.start] = transactionJson(item.entry, item.account, a.permissions, a.nowMs)
  }
  const m = meta(page.totalPages, window, accounts, a)
  const bytes = Buffer.from(
    `{"Data":{"Transaction":[${transactions.join(',')}]},"Links":${JSON.stringify(page.links)},"Meta":${JSON.stringify(m.meta)}}`,
    'utf8',
  )
  deps.pages.set(key, bytes, a.nowMs, pageValidUntil(a, window, accounts, m.followsClock), accounts, page.totalPages)
  send(ctx, bytes)
}

async function accountTransactions(ctx: Context, p: Record<string, string>, deps: AisDeps): Promise<void> {
  const a = await access(ctx, deps, TRANSACTION_RULES.account)
  const acc = bankAccount(deps, a, p.AccountId!)
  const f = readFilters(ctx)
  const window = bookingWindow(a.consent, a.nowMs, f)
  await sendPage(
    ctx,
    deps,
    a,
    () => accountListing(acc, visibleIndices(acc, window, a.nowMs, a.permissions.transactionDirections)),
    f,
    window,
    [acc],
    () =>
      countPsuAbsent(
        ctx,
        deps,
        a,
        `${acc.account.accountId}|transactions`,
        `GET /accounts/${acc.account.accountId}/transactions`,
        f.page > 1,
      ),
  )
}

async function bulkTransactions(ctx: Context, _p: Record<string, string>, deps: AisDeps): Promise<void> {
  const a = await access(ctx, deps, TRANSACTION_RULES.bulk)
  const f = readFilters(ctx)
  const window = bookingWindow(a.consent, a.nowMs, f)
  const accounts = bankAccounts(deps, a)
  await sendPage(
    ctx,
    deps,
    a,
    () =>
      listingOf(
        mergeNewestFirst(
          accounts.map((acc) => selectTransactions(acc, window, a.nowMs, a.permissions.transactionDirections)),
        ),
      ),
    f,
    window,
    accounts,
    async () => {},
  )
}

async function statementTransactions(ctx: Context, p: Record<string, string>, deps: AisDeps): Promise<void> {
  const a = await access(ctx, deps, TRANSACTION_RULES.statement)
  const acc = bankAccount(deps, a, p.AccountId!)
  const statement = findStatement(deps, a, acc, p.StatementId!)
  const f = readFilters(ctx)
  const base = bookingWindow(a.consent, a.nowMs, f)
  const window = { ...base, from: Math.max(base.from, statement.start), to: Math.min(base.to, statement.end - 1) }
  await sendPage(
    ctx,
    deps,
    a,
    () => accountListing(acc, visibleIndices(acc, window, a.nowMs, a.permissions.transactionDirections)),
    f,
    { ...window, floor: Math.max(window.floor, statement.start) },
    [acc],
    async () => {},
  )
}

export const transactionRoutes: Route[] = [
  { method: 'GET', path: '/transactions', handler: bulkTransactions },
  { method: 'GET', path: '/accounts/{AccountId}/transactions', handler: accountTransactions },
  {
    method: 'GET',
    path: '/accounts/{AccountId}/statements/{StatementId}/transactions',
    handler: statementTransactions,
  },
]
