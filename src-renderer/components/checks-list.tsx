import type { CheckResult } from '../../src-main/contract/checks.ts'

function CheckItem({ c, showValues }: { c: CheckResult; showValues: boolean }) {
  // A passing check is amber only when it says what needs attention (its hint); otherwise it simply passes.
  const kind = !c.pass ? 'fail' : c.severity === 'warning' && c.hint ? 'warning' : 'pass'
  return (
    <li className={`check check-${kind}`} data-check={c.name} data-pass={c.pass}>
      <span className="check-mark" aria-hidden="true">
        {c.pass ? (kind === 'warning' ? '!' : '✓') : '✗'}
      </span>
      <span className="check-name">{c.name}</span>
      <span className="sr-only">{c.pass ? 'passes' : 'fails'}</span>
      {showValues || !c.pass ? (
        <span className="check-values">
          <span>
            <span className="muted">expected</span> <code>{c.expected}</code>
          </span>
          <span>
            <span className="muted">actual</span> <code>{c.actual}</code>
          </span>
        </span>
      ) : null}
      {c.hint && (!c.pass || kind === 'warning') ? <span className="check-hint">{c.hint}</span> : null}
    </li>
  )
}

/**
 * Checks with pass/fail, expected and actual values, and the hint of each failure. Compact: a one-line
 * summary that opens to the list, open by itself when something fails.
 */
export function ChecksList({
  checks,
  label = 'Checks',
  compact = false,
}: {
  checks: CheckResult[]
  label?: string
  compact?: boolean
}) {
  if (!checks.length) return null
  const failed = checks.filter((c) => !c.pass).length
  const summary = (
    <>
      {label}: {checks.length - failed} of {checks.length} pass
      {failed ? <strong className="text-fail">, {failed} fail</strong> : null}
    </>
  )
  const list = (
    <ul>
      {checks.map((c, i) => (
        <CheckItem key={`${c.name}-${i}`} c={c} showValues={!compact} />
      ))}
    </ul>
  )
  if (compact) {
    return (
      <details className="checks" role="group" aria-label={label} open={failed > 0}>
        <summary className="checks-summary">{summary}</summary>
        {list}
      </details>
    )
  }
  return (
    <div className="checks" role="group" aria-label={label}>
      <div className="checks-summary">{summary}</div>
      {list}
    </div>
  )
}
