import type { CheckResult } from '../../src-main/contract/checks.ts'

/** Checks with pass/fail, expected and actual values, and the hint of each failure. */
export function ChecksList({ checks, label = 'Checks', compact = false }: { checks: CheckResult[]; label?: string; compact?: boolean }) {
  if (!checks.length) return null
  const failed = checks.filter((c) => !c.pass).length
  return (
    <div className="checks" role="group" aria-label={label}>
      <div className="checks-summary">
        {label}: {checks.length - failed} of {checks.length} pass{failed ? <strong className="text-fail">, {failed} fail</strong> : null}
      </div>
      <ul>
        {checks.map((c, i) => {
          const kind = !c.pass ? 'fail' : c.severity === 'warning' ? 'warning' : 'pass'
          return (
            <li key={`${c.name}-${i}`} className={`check check-${kind}`} data-check={c.name} data-pass={c.pass}>
              <span className="check-mark" aria-hidden="true">{c.pass ? (kind === 'warning' ? '!' : '✓') : '✗'}</span>
              <span className="check-name">{c.name}</span>
              <span className="sr-only">{c.pass ? 'passes' : 'fails'}</span>
              {!compact || !c.pass ? (
                <span className="check-values">
                  <span><span className="muted">expected</span> <code>{c.expected}</code></span>
                  <span><span className="muted">actual</span> <code>{c.actual}</code></span>
                </span>
              ) : null}
              {c.hint ? <span className="check-hint">{c.hint}</span> : null}
            </li>
          )
        })}
      </ul>
    </div>
  )
}
