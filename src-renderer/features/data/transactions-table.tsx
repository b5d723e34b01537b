import { memo, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react'
import type { AccountDataDto } from '../../../src-main/contract/ais-data.ts'
import { CopyButton } from '../../components/copy-button.tsx'
import { optionsOf, SelectField } from '../../components/select-field.tsx'
import { TextField } from '../../components/text-field.tsx'
import { visibleRange } from '../../components/virtual-list.tsx'
import { saveText } from '../../lib/download.ts'
import { formatAmount } from '../../lib/format.ts'
import {
  DEFAULT_SORT,
  filterRows,
  isFiltered,
  nextSort,
  NO_FILTER,
  sortRows,
  toCsv,
  toJsonExport,
  toRows,
  type IndicatorFilter,
  type SortKey,
  type StatusFilter,
  type TxFilter,
  type TxRow,
  type TxSort,
} from './transactions-query.ts'

/** Every row is this tall (px), so the table draws only the rows in view. */
export const TX_ROW_HEIGHT = 34

const COLUMNS: Array<{ key: SortKey; label: string; num?: boolean }> = [
  { key: 'account', label: 'Account' },
  { key: 'date', label: 'Date' },
  { key: 'status', label: 'Status' },
  { key: 'description', label: 'Description' },
  { key: 'amount', label: 'Amount', num: true },
  { key: 'id', label: 'Id' },
]

const INDICATORS = optionsOf<IndicatorFilter>({ all: 'Both', Credit: 'Credits', Debit: 'Debits' })
const STATUSES = optionsOf<StatusFilter>({
  all: 'All',
  BOOK: 'Booked',
  PDNG: 'Pending',
  matched: 'Booked, matched to a pending id',
})

const pad = (n: number) => String(n).padStart(2, '0')

/** `2026-11-27 00:05` in local time: short enough for the column; the cell's title has the ISO time. */
function shortDate(iso: string): string {
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return iso
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`
}

function statusWord(t: TxRow): string {
  return t.status === 'PDNG' ? 'Pending' : t.status === 'BOOK' ? 'Booked' : t.status
}

/** One row; kept as drawn while it stays in view (scrolling draws only the rows that come into view). */
const Row = memo(function Row({ t, index }: { t: TxRow; index: number }) {
  const amount = formatAmount(t.creditDebitIndicator === 'Debit' ? `-${t.amount}` : t.amount, t.currency)
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      className="tx-row"
      data-status={t.status}
      style={{ top: index * TX_ROW_HEIGHT, height: TX_ROW_HEIGHT }}
    >
      <div role="cell" className="clip" title={t.accountId}>
        {t.accountName}
      </div>
      <div role="cell" className="clip" title={t.status === 'PDNG' ? undefined : t.bookingDateTime}>
        {t.status === 'PDNG' ? (
          <span
            title={`${t.bookingDateTime}: a pending transaction's BookingDateTime is the date it is expected to book (Open Banking v4.0)`}
          >
            exp. {shortDate(t.bookingDateTime)}
          </span>
        ) : (
          shortDate(t.bookingDateTime)
        )}
      </div>
      <div role="cell">{statusWord(t)}</div>
      <div role="cell" className="clip" title={t.description ?? t.reference ?? ''}>
        {t.description ?? t.reference ?? ''}
      </div>
      <div role="cell" className={`num ${t.creditDebitIndicator === 'Credit' ? 'text-pass' : ''}`}>
        {amount}
      </div>
      <div role="cell" className="tx-id">
        <code className="clip" title={t.transactionId}>
          {t.transactionId}
        </code>
        {t.matchedPendingId ? (
          <span className="muted small clip" title={`was pending as ${t.matchedPendingId}`}>
            was pending as <code>{t.matchedPendingId}</code>
          </span>
        ) : null}
        <CopyButton text={t.transactionId} label="Copy" ariaLabel={`Copy id ${t.transactionId}`} small />
      </div>
    </div>
  )
})

/** The scroller's height: what the window leaves, between 240 px and 640 px. */
function useViewportHeight(ref: React.RefObject<HTMLDivElement | null>): number {
  const [height, setHeight] = useState(480)
  useEffect(() => {
    const measure = () => {
      const el = ref.current
      if (el) setHeight(el.clientHeight || 480)
    }
    measure()
    window.addEventListener('resize', measure)
    return () => window.removeEventListener('resize', measure)
  }, [ref])
  return height
}

/** The scrolling rows: only this part draws again as it scrolls. */
function RowsBody({ rows, empty }: { rows: TxRow[]; empty: string }) {
  const scroller = useRef<HTMLDivElement>(null)
  const height = useViewportHeight(scroller)
  const [scrollTop, setScrollTop] = useState(0)
  const { start, end } = visibleRange(scrollTop, height, TX_ROW_HEIGHT, rows.length, 10)
  // A new filter or sort shows its first rows.
  useEffect(() => {
    if (scroller.current) scroller.current.scrollTop = 0
    setScrollTop(0)
  }, [rows])
  // Draw again only when the scroll brings another row in or out, not on every scroll event.
  const onScroll = (e: React.UIEvent<HTMLDivElement>) => {
    const top = e.currentTarget.scrollTop
    const next = visibleRange(top, height, TX_ROW_HEIGHT, rows.length, 10)
    if (next.start !== start || next.end !== end) setScrollTop(top)
  }
  return (
    <div
      ref={scroller}
      role="rowgroup"
      className="tx-body"
      tabIndex={0}
      aria-label="Transaction rows"
      data-count={rows.length}
      onScroll={onScroll}
    >
      <div style={{ height: rows.length * TX_ROW_HEIGHT, position: 'relative' }}>
        {rows.slice(start, end).map((t, i) => (
          <Row key={`${t.accountId}/${t.transactionId}/${t.status}`} t={t} index={start + i} />
        ))}
      </div>
      {!rows.length ? <p className="muted tx-empty">{empty}</p> : null}
    </div>
  )
}

/** The filters above the table: text, dates, amount range, credit or debit, status. */
function TxFilters({
  filter,
  setFilter,
}: {
  filter: TxFilter
  setFilter: React.Dispatch<React.SetStateAction<TxFilter>>
}) {
  const set =
    <K extends keyof TxFilter>(k: K) =>
    (value: TxFilter[K]) =>
      setFilter((f) => ({ ...f, [k]: value }))
  return (
    <div className="tx-filters" role="search" aria-label="Filter transactions">
      <TextField
        label="Search transactions"
        type="search"
        data-shortcut-target="filter"
        value={filter.text}
        onChange={set('text')}
        placeholder="id, description, reference, account, amount"
      />
      <TextField label="From date" type="date" value={filter.from} onChange={set('from')} />
      <TextField label="To date" type="date" value={filter.to} onChange={set('to')} />
      <TextField
        label="Amount at least"
        inputMode="decimal"
        value={filter.minAmount}
        onChange={set('minAmount')}
        placeholder="0.00"
      />
      <TextField label="Amount at most" inputMode="decimal" value={filter.maxAmount} onChange={set('maxAmount')} />
      <SelectField label="Credit or debit" value={filter.indicator} options={INDICATORS} onChange={set('indicator')} />
      <SelectField label="Status" value={filter.status} options={STATUSES} onChange={set('status')} />
    </div>
  )
}

/** The header row: each column sorts on a click, and again the other way on a second one. */
function TxHeader({ sort, setSort }: { sort: TxSort; setSort: React.Dispatch<React.SetStateAction<TxSort>> }) {
  return (
    <div role="rowgroup" className="tx-head">
      <div role="row" aria-rowindex={1} className="tx-row tx-header">
        {COLUMNS.map((c) => (
          <div
            key={c.key}
            role="columnheader"
            className={c.num ? 'num' : undefined}
            aria-sort={sort.key === c.key ? (sort.dir === 'asc' ? 'ascending' : 'descending') : 'none'}
          >
            <button type="button" className="link tx-sort" onClick={() => setSort((s) => nextSort(s, c.key))}>
              {c.label}
              {sort.key === c.key ? (sort.dir === 'asc' ? ' ▲' : ' ▼') : ''}
            </button>
          </div>
        ))}
      </div>
    </div>
  )
}

/**
 * Every account's transactions in one table that draws only the rows in view (10,000 rows scroll as one),
 * with filters (text, dates, amount, credit/debit, status or matched), sortable columns and the export of
 * exactly what is shown.
 */
export function TransactionsTable({ data }: { data: AccountDataDto[] }) {
  const all = useMemo(() => toRows(data), [data])
  const [filter, setFilter] = useState<TxFilter>(NO_FILTER)
  const [sort, setSort] = useState<TxSort>(DEFAULT_SORT)
  const deferred = useDeferredValue(filter)
  const { rows, ms } = useMemo(() => {
    const started = performance.now()
    const out = sortRows(filterRows(all, deferred), sort)
    return { rows: out, ms: performance.now() - started }
  }, [all, deferred, sort])
  const matched = all.reduce((n, r) => n + (r.matchedPendingId ? 1 : 0), 0)
  const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-')
  const pagesFetched = data.reduce((n, d) => n + d.transactions.pages, 0)

  return (
    <section className="tx-section" aria-label="Transactions">
      <TxFilters filter={filter} setFilter={setFilter} />
      <div className="actions">
        <p
          className="small tx-count"
          aria-live="polite"
          aria-label="Transactions shown"
          data-shown={rows.length}
          data-total={all.length}
          data-filter-ms={ms.toFixed(1)}
        >
          {rows.length.toLocaleString('en-GB')} of {all.length.toLocaleString('en-GB')} transactions shown
          {' · '}
          {pagesFetched} page{pagesFetched === 1 ? '' : 's'} fetched (following Next)
          {matched
            ? ` · ${matched} booked transaction${matched === 1 ? '' : 's'} matched to ${matched === 1 ? 'its' : 'their'} pending id`
            : ''}
          <span className="muted"> · filtered and sorted in {ms < 1 ? '<1' : Math.round(ms)} ms</span>
        </p>
        <span className="spacer" />
        {isFiltered(filter) ? (
          <button type="button" className="secondary small" onClick={() => setFilter(NO_FILTER)}>
            Clear filters
          </button>
        ) : null}
        <button
          type="button"
          className="secondary small"
          disabled={!rows.length}
          onClick={() => saveText(`transactions-${stamp}.csv`, toCsv(rows), 'text/csv')}
        >
          Export CSV ({rows.length.toLocaleString('en-GB')})
        </button>
        <button
          type="button"
          className="secondary small"
          disabled={!rows.length}
          onClick={() => saveText(`transactions-${stamp}.json`, toJsonExport(rows), 'application/json')}
        >
          Export JSON ({rows.length.toLocaleString('en-GB')})
        </button>
      </div>
      <div role="table" className="tx-table" aria-label="Transactions table" aria-rowcount={rows.length + 1}>
        <TxHeader sort={sort} setSort={setSort} />
        <RowsBody
          rows={rows}
          empty={all.length ? 'No transaction matches these filters.' : 'No transactions in this period.'}
        />
      </div>
    </section>
  )
}
