import { useState } from 'react'
import type { AccountDataDto, PsuAbsentBudgetDto, TransactionViewDto } from '../../../src-main/contract/ais-data.ts'
import { formatAmount, formatDate } from '../../lib/format.ts'
import { useEnvironmentNow } from '../../store/use-environment-now.ts'
import { ExchangeLink } from '../flows/exchange-link.tsx'
import { budgetWords } from './budget-words.ts'

type Obj = Record<string, unknown>
const obj = (v: unknown): Obj => (v && typeof v === 'object' ? (v as Obj) : {})
const str = (v: unknown): string | undefined =>
  typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined

/** The account's identification (sort code and number, or masked PAN) from OBAccount6. */
export function identification(account: Obj): string | undefined {
  const list = account['Account']
  const first = Array.isArray(list) ? obj(list[0]) : obj(list)
  return str(first['Identification'])
}

export function signed(amount: string, indicator: unknown): string {
  return indicator === 'Debit' ? `-${amount}` : amount
}

/** Balances (ITAV; the card's credit line), with the indicator applied. */
export function Balances({ balances, currency }: { balances: Obj[]; currency?: string }) {
  if (!balances.length) return <p className="muted">No balance returned.</p>
  return (
    <table className="table" aria-label="Balances">
      <thead>
        <tr>
          <th>Type</th>
          <th className="num">Amount</th>
          <th>As of</th>
          <th>Credit line</th>
        </tr>
      </thead>
      <tbody>
        {balances.map((b, i) => {
          const amount = obj(b['Amount'])
          const lines = Array.isArray(b['CreditLine']) ? (b['CreditLine'] as Obj[]) : []
          return (
            <tr key={i}>
              <td>
                <code>{str(b['Type'])}</code>
              </td>
              <td className="num">
                {formatAmount(
                  signed(str(amount['Amount']) ?? '', b['CreditDebitIndicator']),
                  str(amount['Currency']) ?? currency,
                )}
              </td>
              <td>{formatDate(str(b['DateTime']))}</td>
              <td>
                {lines.length ? (
                  lines.map((l, j) => (
                    <div key={j}>
                      {str(l['Type'])}:{' '}
                      {formatAmount(str(obj(l['Amount'])['Amount']), str(obj(l['Amount'])['Currency']))}{' '}
                      {l['Included'] ? '(included)' : '(not included)'}
                    </div>
                  ))
                ) : (
                  <span className="muted">–</span>
                )}
              </td>
            </tr>
          )
        })}
      </tbody>
    </table>
  )
}

const PAGE = 50

/** Transactions with status, the pending-to-booked matches, and how many pages were followed. */
function Transactions({ tx, compact }: { tx: AccountDataDto['transactions']; compact?: boolean }) {
  const [shown, setShown] = useState(compact ? 5 : PAGE)
  const rows: TransactionViewDto[] = tx.items.slice(0, shown)
  return (
    <div>
      <p className="small" aria-label="Transaction pages">
        {tx.total} transactions · {tx.pages} page{tx.pages === 1 ? '' : 's'} fetched (100 per page, following Next)
        {tx.pendingMatched
          ? ` · ${tx.pendingMatched} pending transaction${tx.pendingMatched === 1 ? '' : 's'} matched to ${tx.pendingMatched === 1 ? 'its' : 'their'} booked id`
          : ''}
      </p>
      {tx.items.length ? (
        <table className="table" aria-label="Transactions">
          <thead>
            <tr>
              <th>Date</th>
              <th>Status</th>
              <th>Description</th>
              <th className="num">Amount</th>
              <th>Id</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((t) => (
              <tr key={`${t.transactionId}-${t.status}`} data-status={t.status}>
                <td>
                  {t.status === 'PDNG' ? (
                    <span title="A pending transaction's BookingDateTime is the date it is expected to book (Open Banking v4.0), so it can lie a day or two ahead">
                      expected {formatDate(t.bookingDateTime)}
                    </span>
                  ) : (
                    formatDate(t.bookingDateTime)
                  )}
                </td>
                <td>{t.status === 'PDNG' ? 'Pending' : t.status === 'BOOK' ? 'Booked' : t.status}</td>
                <td>{t.description ?? t.reference ?? ''}</td>
                <td className={`num ${t.creditDebitIndicator === 'Credit' ? 'text-pass' : ''}`}>
                  {formatAmount(signed(t.amount, t.creditDebitIndicator), t.currency)}
                </td>
                <td className="small">
                  <code>{t.transactionId}</code>
                  {t.matchedPendingId ? (
                    <div className="muted">
                      was pending as <code>{t.matchedPendingId}</code>
                    </div>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="muted">No transactions in this period.</p>
      )}
      {tx.items.length > shown ? (
        <button type="button" className="secondary small" onClick={() => setShown(shown + PAGE)}>
          Show {Math.min(PAGE, tx.items.length - shown)} more
        </button>
      ) : null}
    </div>
  )
}

/** The other resources read for the account, with the product-rule sentence where one is empty by rule. */
function Resources({ resources }: { resources: AccountDataDto['resources'] }) {
  if (!resources.length) return null
  return (
    <table className="table" aria-label="Other resources">
      <thead>
        <tr>
          <th>Resource</th>
          <th>Status</th>
          <th className="num">Items</th>
          <th>Note</th>
        </tr>
      </thead>
      <tbody>
        {resources.map((r) => (
          <tr key={r.resource}>
            <td>
              {r.exchangeId ? <ExchangeLink id={r.exchangeId} /> : null} <code>{r.resource}</code>
            </td>
            <td>{r.status}</td>
            <td className="num">{r.count}</td>
            <td>
              {r.emptyByProductRule ? (
                <span className="product-rule">{r.emptyByProductRule}</span>
              ) : r.count === 0 ? (
                <span className="muted">none</span>
              ) : (
                ''
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

/** One account: header, balances, transactions (unless the view shows them in one table), other resources. */
export function AccountCard({
  data,
  compact,
  withTransactions = true,
}: {
  data: AccountDataDto
  compact?: boolean
  withTransactions?: boolean
}) {
  const id = identification(data.account)
  return (
    <article className="card account" aria-label={`Account ${data.nickname ?? data.accountId}`}>
      <header className="account-head">
        <h3>{data.nickname ?? data.accountId}</h3>
        <span className="muted small">
          {data.accountTypeCode === 'CARD'
            ? 'Credit card'
            : data.accountTypeCode === 'CACC'
              ? 'Current account'
              : data.accountTypeCode}{' '}
          · {data.currency} · {id ?? data.accountId}
        </span>
      </header>
      <h4>Balances</h4>
      <Balances balances={data.balances} currency={data.currency} />
      {withTransactions ? (
        <>
          <h4>Transactions</h4>
          <Transactions tx={data.transactions} compact={compact} />
        </>
      ) : null}
      {compact ? (
        <p className="small muted">{data.resources.map((r) => `${r.resource}: ${r.count}`).join(' · ')}</p>
      ) : (
        <>
          <h4>Other resources</h4>
          <Resources resources={data.resources} />
        </>
      )}
    </article>
  )
}

/**
 * What is left of the PSU-absent allowance (4 calls in 24 hours) per consent and account. `level`: its
 * heading's, one below the heading of the part it is shown in.
 */
export function BudgetPanel({
  budget,
  environmentId,
  accounts,
  level = 2,
}: {
  budget: PsuAbsentBudgetDto[]
  /** The consent's environment: the console counts these calls on its clock (the local sandbox's, moved or not). */
  environmentId: string | undefined
  accounts?: AccountDataDto[]
  level?: 2 | 3 | 4
}) {
  const Heading = `h${level}` as const
  const now = useEnvironmentNow(environmentId)
  if (!budget.length) return null
  return (
    <section className="card" aria-label="PSU-absent budget">
      <Heading>PSU-absent budget</Heading>
      <p className="muted small">
        Without the PSU present, the bank allows 4 calls in 24 hours per consent, account and endpoint (account list,
        account, balances, transactions), and 90 days of history without SCA.
      </p>
      <table className="table" aria-label="PSU-absent calls left">
        <thead>
          <tr>
            <th>Consent · account · endpoint</th>
            <th className="num">Left</th>
            <th>Next access</th>
            <th>History without SCA from</th>
          </tr>
        </thead>
        <tbody>
          {budget.map((b) => {
            const w = budgetWords(b, accounts, now)
            return (
              <tr
                key={`${b.consentId}-${b.accountId ?? 'list'}-${b.endpoint}`}
                aria-label={`${w.consent} · ${w.account} · ${w.endpoint}: ${w.left}, ${w.back}`}
              >
                <td>
                  <span title={b.consentId}>{w.consent}</span> · <span title={b.accountId}>{w.account}</span> ·{' '}
                  <strong>{w.endpoint}</strong>
                </td>
                <td className={`num ${b.remaining === 0 ? 'text-fail' : ''}`}>{w.left}</td>
                <td title={b.nextSlotAt ? formatDate(b.nextSlotAt) : undefined}>{w.back}</td>
                <td>{formatDate(b.historyWithoutScaFrom)}</td>
              </tr>
            )
          })}
        </tbody>
      </table>
    </section>
  )
}

/** Every account of an AIS flow. */
export function AccountDataList({
  data,
  compact,
  withTransactions,
}: {
  data: AccountDataDto[]
  compact?: boolean
  withTransactions?: boolean
}) {
  if (!data.length) return <p className="muted">The consent gives access to no account (the PSU selected none).</p>
  return (
    <div className={`accounts${compact ? ' accounts-compact' : ''}`}>
      {data.map((d) => (
        <AccountCard key={d.accountId} data={d} compact={compact} withTransactions={withTransactions} />
      ))}
    </div>
  )
}
