import type { ReactNode } from 'react'
import type { UiError } from '../api/transport.ts'

/** A failure as the engine explains it: what failed, the likely cause, the fix (never a stack). */
export function ErrorPanel({
  error,
  title,
  onDismiss,
  children,
}: {
  error: UiError | undefined
  title?: string
  onDismiss?: () => void
  /** More about the error, read out with it (a step's code and the exchange that failed). */
  children?: ReactNode
}) {
  if (!error) return null
  // A detail with no value says nothing ("url:" with nothing after it): left out.
  const details = Object.entries(error.details ?? {}).filter(([, v]) => v !== undefined && v !== null && v !== '')
  return (
    <div className="error-panel" role="alert" data-code={error.code}>
      <div className="error-head">
        <strong>
          {title ? `${title}: ` : ''}
          {error.what}
        </strong>
        {onDismiss ? (
          <button type="button" className="link" onClick={onDismiss} aria-label="Dismiss error">
            Dismiss
          </button>
        ) : null}
      </div>
      <p>
        <span className="muted">Cause</span> {error.cause}
      </p>
      <p>
        <span className="muted">Fix</span> {error.fix}
      </p>
      {children}
      {error.problems?.length ? (
        <ul className="problems">
          {error.problems.map((p, i) => (
            <li key={i}>
              <code>{p.code}</code> {p.message}
              {p.path && p.path !== p.code ? (
                <>
                  {' '}
                  at <code>{p.path}</code>
                </>
              ) : null}
              {p.explanation ? <span className="muted"> ({p.explanation})</span> : null}
            </li>
          ))}
        </ul>
      ) : null}
      <p className="muted small">
        code {error.code}
        {details.map(([k, v]) => ` · ${k}: ${String(v)}`).join('')}
      </p>
    </div>
  )
}
