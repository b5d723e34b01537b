/**
 * The transactions table's rules, pure: one row list for every account of a flow, filtered by text, date
 * range, amount, credit/debit and status, sorted by a column, and exported as CSV or JSON exactly as shown.
 */
import type { AccountDataDto, TransactionViewDto } from '../../../src-main/contract/ais-data.ts'

/** A transaction with the account it belongs to and the figures the filters and sorts compare. */
export interface TxRow extends TransactionViewDto {
  accountId: string
  /** The account's nickname when it has one, else its id (what the table shows). */
  accountName: string
  /** The amount in minor-unit-free numbers, signed by the indicator (debits negative). */
  signedAmount: number
  /** BookingDateTime in ms since the epoch (NaN when the bank sent none). */
  time: number
}

export type StatusFilter = 'all' | 'BOOK' | 'PDNG' | 'matched'
export type IndicatorFilter = 'all' | 'Credit' | 'Debit'

export interface TxFilter {
  /** Case-insensitive, in id, pending id, description, reference, account id or nickname, and amount. */
  text: string
  /** `YYYY-MM-DD`, inclusive, compared in UTC (the bank's dates are UTC). */
  from: string
  to: string
  /** Absolute amounts, inclusive; empty means no bound. */
  minAmount: string
  maxAmount: string
  indicator: IndicatorFilter
  status: StatusFilter
}

export const NO_FILTER: TxFilter = {
  text: '',
  from: '',
  to: '',
  minAmount: '',
  maxAmount: '',
  indicator: 'all',
  status: 'all',
}

export type SortKey = 'date' | 'amount' | 'status' | 'description' | 'account' | 'id'
export interface TxSort {
  key: SortKey
  dir: 'asc' | 'desc'
}
export const DEFAULT_SORT: TxSort = { key: 'date', dir: 'desc' }

/** Every account's transactions as one list of rows. */
export function toRows(data: AccountDataDto[]): TxRow[] {
  const out: TxRow[] = []
  for (const account of data) {
    for (const t of account.transactions.items) {
      const amount = Number(t.amount)
      out.push({
        ...t,
        accountId: account.accountId,
        accountName: account.nickname ?? account.accountId,
        signedAmount: t.creditDebitIndicator === 'Debit' ? -amount : amount,
        time: Date.parse(t.bookingDateTime),
      })
    }
  }
  return out
}

const DAY = 86_400_000

/** The rows the filter keeps, in their order. An unreadable bound (a half-typed amount) is no bound. */
export function filterRows(rows: TxRow[], f: TxFilter): TxRow[] {
  const text = f.text.trim().toLowerCase()
  const from = f.from ? Date.parse(`${f.from}T00:00:00Z`) : NaN
  const to = f.to ? Date.parse(`${f.to}T00:00:00Z`) + DAY : NaN
  const min = f.minAmount.trim() ? Number(f.minAmount) : NaN
  const max = f.maxAmount.trim() ? Number(f.maxAmount) : NaN
  const checks: Array<(r: TxRow) => boolean> = []
  if (f.indicator !== 'all') checks.push((r) => r.creditDebitIndicator === f.indicator)
  if (f.status === 'matched') checks.push((r) => !!r.matchedPendingId)
  else if (f.status !== 'all') checks.push((r) => r.status === f.status)
  if (!Number.isNaN(from)) checks.push((r) => r.time >= from)
  if (!Number.isNaN(to)) checks.push((r) => r.time < to)
  if (!Number.isNaN(min)) checks.push((r) => Math.abs(r.signedAmount) >= min)
  if (!Number.isNaN(max)) checks.push((r) => Math.abs(r.signedAmount) <= max)
  if (text) {
    checks.push(
      (r) =>
        r.transactionId.toLowerCase().includes(text) ||
        (r.description?.toLowerCase().includes(text) ?? false) ||
        (r.reference?.toLowerCase().includes(text) ?? false) ||
        (r.matchedPendingId?.toLowerCase().includes(text) ?? false) ||
        r.accountId.toLowerCase().includes(text) ||
        r.accountName.toLowerCase().includes(text) ||
        r.amount.includes(text),
    )
  }
  if (!checks.length) return rows
  return rows.filter((r) => checks.every((c) => c(r)))
}

const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true })

const COMPARE: Record<SortKey, (a: TxRow, b: TxRow) => number> = {
  date: (a, b) => (a.time || 0) - (b.time || 0),
  amount: (a, b) => a.signedAmount - b.signedAmount,
  status: (a, b) => collator.compare(a.status, b.status),
  description: (a, b) => collator.compare(a.description ?? a.reference ?? '', b.description ?? b.reference ?? ''),
  account: (a, b) => collator.compare(a.accountName, b.accountName),
  id: (a, b) => collator.compare(a.transactionId, b.transactionId),
}

/** A sorted copy; ties go by id, ascending whichever the direction (so the order never depends on the input's). */
export function sortRows(rows: TxRow[], sort: TxSort): TxRow[] {
  const cmp = COMPARE[sort.key]
  const sign = sort.dir === 'asc' ? 1 : -1
  return rows.slice().sort((a, b) => sign * cmp(a, b) || COMPARE.id(a, b))
}

/** The next sort when a column header is pressed: the same column flips, another starts descending (dates, amounts) or ascending (text). */
export function nextSort(current: TxSort, key: SortKey): TxSort {
  if (current.key === key) return { key, dir: current.dir === 'asc' ? 'desc' : 'asc' }
  return { key, dir: key === 'date' || key === 'amount' ? 'desc' : 'asc' }
}

const CSV_COLUMNS = [
  'accountId',
  'transactionId',
  'status',
  'bookingDateTime',
  'creditDebitIndicator',
  'amount',
  'currency',
  'description',
  'reference',
  'matchedPendingId',
] as const

function csvCell(v: string | undefined): string {
  const s = v ?? ''
  // Quote what would break a row, and what a spreadsheet would run as a formula.
  const safe = /^[=+\-@\t\r]/.test(s) && !/^-?\d+(\.\d+)?$/.test(s) ? `'${s}` : s
  return /[",\r\n]/.test(safe) || safe !== s ? `"${safe.replace(/"/g, '""')}"` : safe
}

/** The rows as CSV (RFC 4180: CRLF, quoted where needed), one header line, the columns of the bank's data. */
export function toCsv(rows: TxRow[]): string {
  const lines = [CSV_COLUMNS.join(',')]
  for (const r of rows) lines.push(CSV_COLUMNS.map((c) => csvCell(r[c])).join(','))
  return `${lines.join('\r\n')}\r\n`
}

/** The rows as JSON: the contract's transaction view plus the account id, without the computed figures. */
export function toJsonExport(rows: TxRow[]): string {
  return `${JSON.stringify(
    rows.map(({ signedAmount: _s, time: _t, accountName: _n, ...r }) => r),
    null,
    2,
  )}\n`
}

/** The filter's fields in words, for the export's file name and the "n of m shown" line. */
export function isFiltered(f: TxFilter): boolean {
  return (Object.keys(NO_FILTER) as Array<keyof TxFilter>).some((k) => f[k] !== NO_FILTER[k])
}
