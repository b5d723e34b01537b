/**
 * The local sandbox's clock on a flow card: its time, buttons that move it forward, and what the move
 * does to the flow (consent expiry, the 90-day window, the PSU-absent 24-hour window), judged by the
 * sandbox's time as the sandbox judges them. Local sandbox only.
 */
import { useEffect } from 'react'
import type { FlowState } from '../../../src-main/contract/flows.ts'
import { ErrorPanel } from '../../components/error-panel.tsx'
import { formatDate } from '../../lib/format.ts'
import { useApp } from '../../store/store.ts'
import { formatDuration } from '../../lib/clock.ts'
import { useEnvironmentNow } from '../../store/use-environment-now.ts'
import { consentExpiry } from '../flows/consent-expiry.ts'

const MOVES: Array<{ label: string; move: { hours?: number; days?: number } }> = [
  { label: '+1 hour', move: { hours: 1 } },
  { label: '+6 hours', move: { hours: 6 } },
  { label: '+1 day', move: { days: 1 } },
  { label: '+7 days', move: { days: 7 } },
  { label: '+30 days', move: { days: 30 } },
  { label: '+90 days', move: { days: 90 } },
]

export function SandboxClockControl({ flow }: { flow: FlowState }) {
  const clock = useApp((s) => s.sandboxClock)
  const load = useApp((s) => s.loadSandboxClock)
  const move = useApp((s) => s.moveSandboxClock)
  const op = useApp((s) => s.ops['sandbox.moveClock'])
  const readOp = useApp((s) => s.ops['sandbox.clock'])
  useEffect(() => {
    void load()
  }, [load])
  // The one "now" of the renderer: the flow header and the consent cards count from the same time.
  const now = useEnvironmentNow(flow.environmentId)
  const expiry = clock && flow.kind === 'ais' ? consentExpiry(flow, now) : undefined
  return (
    <section className="card" aria-label="Sandbox clock">
      <h3>Local sandbox clock</h3>
      {clock ? (
        <p aria-label="Sandbox time">
          Sandbox time <strong>{formatDate(new Date(now).toISOString())}</strong>
          {clock.offsetSeconds > 0 ? (
            <span className="muted"> ({formatDuration(clock.offsetSeconds * 1000)} ahead of wall time)</span>
          ) : (
            <span className="muted"> (wall time)</span>
          )}
        </p>
      ) : null}
      <div className="actions" role="group" aria-label="Move the sandbox clock forward">
        {MOVES.map((m) => (
          <button
            key={m.label}
            type="button"
            className="secondary small"
            disabled={op?.busy}
            onClick={() => void move(m.move, flow.id)}
          >
            {m.label}
          </button>
        ))}
      </div>
      {clock ? (
        <ul className="plain-list small" aria-label="Effect of the sandbox clock">
          {expiry ? <li>{expiry.text.replace(/^Consent/, "By the sandbox's clock, the consent")}</li> : null}
          <li>90-day history without SCA from {formatDate(new Date(now - 90 * 86_400_000).toISOString())}.</li>
          <li>
            PSU-absent calls counted since {formatDate(new Date(now - 86_400_000).toISOString())} (the sandbox's 24-hour
            window).
          </li>
        </ul>
      ) : null}
      <p className="muted small">
        The sandbox's clock only moves forward, and keeps its offset when the sandbox restarts. Pending transactions
        book, consents expire and quota windows slide by it.
      </p>
      <ErrorPanel error={op?.error ?? readOp?.error} title="The sandbox clock" />
    </section>
  )
}
