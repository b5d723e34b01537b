import type { ReactNode } from 'react'
import { StatusBadge } from '../../components/status-badge.tsx'

type StageState = 'done' | 'current' | 'locked'

/**
 * One numbered step of the guide, a region named "Step n: title": its explanation always, its controls once
 * it is no longer locked, a tick and a "done" badge when it is done.
 */
export function Stage({
  n,
  title,
  state,
  explanation,
  children,
}: {
  n: number
  title: string
  state: StageState
  explanation: string
  children?: ReactNode
}) {
  return (
    <section className={`card stage stage-${state}`} aria-label={`Step ${n}: ${title}`} data-state={state}>
      <header className="stage-head">
        <span className="stage-n" aria-hidden="true">
          {state === 'done' ? '✓' : n}
        </span>
        <h2>{title}</h2>
        {state === 'done' ? <StatusBadge status="done" /> : null}
      </header>
      <p className="stage-explanation">{explanation}</p>
      {state !== 'locked' ? children : null}
    </section>
  )
}

/** A step's action: a button that says what it is doing while it runs, and cannot be pressed again meanwhile. */
export function StageAction({
  label,
  busyLabel,
  busy,
  run,
}: {
  label: string
  busyLabel: string
  busy: boolean | undefined
  run: () => Promise<unknown>
}) {
  return (
    <button type="button" onClick={() => void run()} disabled={busy}>
      {busy ? busyLabel : label}
    </button>
  )
}
