import type { StepState } from '../../src-main/contract/flows.ts'

/** How far a running step got: page k of n, rows so far (the transactions step reports it per page). */
export function StepProgressLine({ step }: { step: StepState }) {
  const p = step.progress
  if (step.status !== 'running' || !p) return null
  return (
    <div className="step-progress" role="status" aria-label={`Progress of ${step.title}`}>
      <progress value={p.pages ? p.page : undefined} max={p.pages ?? undefined} />
      <span className="small">
        Reading {p.label}: page {p.page}
        {p.pages ? ` of ${p.pages}` : ''} · {p.rows.toLocaleString('en-GB')} rows so far
      </span>
    </div>
  )
}
