import { ChecksList } from '../../components/checks-list.tsx'
import { ErrorPanel } from '../../components/error-panel.tsx'
import { preflightClaims } from '../../store/discovery-slice.ts'
import { useApp } from '../../store/store.ts'
import { ExchangeLink } from '../flows/exchange-link.tsx'

/** True when the pre-flight result is for these claims in this environment. */
export function preflightFresh(
  p: { claimsJson: string; environmentId: string } | undefined,
  environmentId: string,
  claims: Record<string, unknown> | undefined,
): boolean {
  return (
    !!p && !!claims && p.environmentId === environmentId && p.claimsJson === JSON.stringify(preflightClaims(claims))
  )
}

const names = (checks: Array<{ name: string }>) => checks.map((c) => c.name.replace(/^registered /, '')).join(', ')

/**
 * The registration builder's pre-flight: the claims about to be sent against what discovery advertises.
 * Sending runs it first; a mismatch (or a failing claim) blocks the send unless the user sends anyway.
 */
export function PreflightPanel({
  environmentId,
  claims,
}: {
  environmentId: string
  claims: Record<string, unknown> | undefined
}) {
  const preflight = useApp((s) => s.preflight)
  const run = useApp((s) => s.runPreflight)
  const op = useApp((s) => s.ops['registration.preflight'])
  const fresh = preflightFresh(preflight, environmentId, claims)
  const failed = fresh ? preflight!.checks.filter((c) => !c.pass) : []
  return (
    <section className="card" aria-label="Pre-flight against discovery">
      <div className="view-head">
        <h3>Pre-flight against discovery</h3>
        <button
          type="button"
          className="secondary small"
          disabled={!claims || op?.busy}
          onClick={() => void run(environmentId, claims!)}
        >
          {op?.busy ? 'Checking…' : 'Check against discovery'}
        </button>
      </div>
      <ErrorPanel error={op?.error} title="Pre-flight not run" />
      {fresh ? (
        <>
          <p role="status" className={failed.length ? 'text-fail' : 'text-pass'}>
            {failed.length
              ? `The bank does not advertise ${failed.length === 1 ? 'one thing' : `${failed.length} things`} this registration asks for: ${names(failed)}.`
              : 'Discovery advertises everything this registration asks for.'}{' '}
            <ExchangeLink id={preflight!.exchangeId} />
          </p>
          <ChecksList checks={preflight!.checks} label="Pre-flight checks" compact />
        </>
      ) : (
        <p className="muted small">
          {preflight && preflight.environmentId === environmentId ? 'The claims changed since the last check: ' : ''}
          Sending checks the claims against {preflight?.discoveryUrl ?? "the environment's discovery document"} first.
        </p>
      )}
    </section>
  )
}
