import { useMemo } from 'react'
import type { AccountDataDto } from '../../../src-main/contract/ais-data.ts'
import { CopyButton } from '../../components/copy-button.tsx'
import { TextField } from '../../components/text-field.tsx'
import { formatAmount } from '../../lib/format.ts'
import { identification, signed } from './account-data.tsx'

type Obj = Record<string, unknown>
const obj = (v: unknown): Obj => (v && typeof v === 'object' ? (v as Obj) : {})
const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '')

const TYPE_WORDS: Record<string, string> = { CARD: 'Credit card', CACC: 'Current account', SVGS: 'Savings' }

/** One balance in words, the indicator applied: `ITAV £1,234.56`. */
function balanceText(b: Obj, currency?: string): string {
  const amount = obj(b['Amount'])
  return `${str(b['Type'])} ${formatAmount(signed(str(amount['Amount']), b['CreditDebitIndicator']), str(amount['Currency']) || currency)}`
}

/** Everything a search over an account may match: ids, nickname, identification, type, currency, balances. */
function haystack(d: AccountDataDto): string {
  return [
    d.accountId,
    d.nickname,
    identification(d.account),
    d.accountTypeCode,
    d.accountTypeCode ? TYPE_WORDS[d.accountTypeCode] : '',
    d.currency,
    ...d.balances.map((b) => `${balanceText(b, d.currency)} ${str(obj(b['Amount'])['Amount'])}`),
  ]
    .filter(Boolean)
    .join(' ')
    .toLowerCase()
}

/** The accounts of a flow with their balances, in one searchable table. */
export function AccountsOverview({
  data,
  query,
  onQuery,
}: {
  data: AccountDataDto[]
  query: string
  onQuery: (q: string) => void
}) {
  const index = useMemo(() => data.map((d) => [d, haystack(d)] as const), [data])
  const q = query.trim().toLowerCase()
  const shown = q ? index.filter(([, h]) => q.split(/\s+/).every((w) => h.includes(w))).map(([d]) => d) : data
  return (
    <section aria-label="Accounts and balances">
      <TextField
        label="Search accounts and balances"
        hint="Account id, nickname, sort code and number or PAN, type, currency, balance type or amount."
        type="search"
        value={query}
        onChange={onQuery}
      />
      <p className="small" aria-live="polite" aria-label="Accounts shown">
        {shown.length} of {data.length} account{data.length === 1 ? '' : 's'} shown
      </p>
      <table className="table" aria-label="Accounts">
        <thead>
          <tr>
            <th>Account</th>
            <th>Type</th>
            <th>Identification</th>
            <th>Balances</th>
            <th className="num">Transactions</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((d) => (
            <tr key={d.accountId}>
              <td>
                <strong>{d.nickname ?? d.accountId}</strong>
                <div className="small">
                  <code>{d.accountId}</code>{' '}
                  <CopyButton text={d.accountId} ariaLabel={`Copy id ${d.accountId}`} small />
                </div>
              </td>
              <td>
                {d.accountTypeCode ? (TYPE_WORDS[d.accountTypeCode] ?? d.accountTypeCode) : '–'} · {d.currency ?? '–'}
              </td>
              <td>
                <code>{identification(d.account) ?? '–'}</code>
              </td>
              <td>
                {d.balances.length ? (
                  d.balances.map((b, i) => <div key={i}>{balanceText(b, d.currency)}</div>)
                ) : (
                  <span className="muted">none</span>
                )}
              </td>
              <td className="num">{d.transactions.total.toLocaleString('en-GB')}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {!shown.length ? <p className="muted">No account matches “{query}”.</p> : null}
    </section>
  )
}

/** Only the accounts a search keeps (for the account cards under the tables). */
export function matchAccounts(data: AccountDataDto[], query: string): AccountDataDto[] {
  const q = query.trim().toLowerCase()
  if (!q) return data
  return data.filter((d) => {
    const h = haystack(d)
    return q.split(/\s+/).every((w) => h.includes(w))
  })
}
