import { useEffect } from 'react'
import type { ConformanceDto } from '../../../src-main/contract/exchange.ts'
import { useApp } from '../../store/store.ts'

/**
 * The bank-conformance lens on one exchange, beside its body (after the diagnosis): every way the bank's answer departs
 * from the official OB v4.0 schemas or the bank's rules (JSON path, rule, value found, where the rule is
 * written), or that it passes, or why it was not checked. A verdict still being checked when the exchange
 * was opened is read again when its row reports the end of the check.
 */
export function ConformancePanel({
  exchangeId,
  conformance,
}: {
  exchangeId: string
  conformance: ConformanceDto | undefined
}) {
  const rowCount = useApp((s) => s.inspector.items.find((i) => i.id === exchangeId)?.violations)
  const loadConformance = useApp((s) => s.loadConformance)
  const stale = conformance !== undefined && !conformance.checked && rowCount !== undefined
  useEffect(() => {
    if (stale) void loadConformance(exchangeId)
  }, [stale, exchangeId, loadConformance])
  if (!conformance) return null
  const n = conformance.violations.length
  return (
    <section className="conformance" aria-label="Bank conformance">
      <h4>
        Bank conformance{' '}
        {conformance.checked ? (
          <span className={`badge ${n ? 'badge-fail' : 'badge-pass'}`}>
            {n ? `${n} violation${n === 1 ? '' : 's'}` : 'conforms'}
          </span>
        ) : (
          <span className="badge">not checked</span>
        )}
      </h4>
      {conformance.operation ? (
        <p className="muted small">
          Checked as {conformance.operation} against the official OB v4.0 schemas and the bank's rules.
        </p>
      ) : null}
      {conformance.note ? (
        <p className="muted small" role="note">
          {conformance.note}
        </p>
      ) : null}
      {n ? (
        <table className="table conformance-violations" aria-label="Conformance violations">
          <thead>
            <tr>
              <th scope="col">Path</th>
              <th scope="col">Rule</th>
              <th scope="col">Value found</th>
              <th scope="col">What and where it is written</th>
            </tr>
          </thead>
          <tbody>
            {conformance.violations.map((v, i) => (
              <tr key={`${v.rule}-${v.path}-${i}`}>
                <td>
                  <code className="wrap">{v.path || '(the whole answer)'}</code>
                </td>
                <td>
                  <code>{v.rule}</code>
                </td>
                <td>
                  {v.value !== undefined ? (
                    <code className="wrap">{v.value}</code>
                  ) : (
                    <span className="muted">absent</span>
                  )}
                </td>
                <td>
                  {v.message}
                  <div className="muted small">{v.source}</div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  )
}
