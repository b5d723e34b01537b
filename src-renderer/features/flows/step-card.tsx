import { useState } from 'react'
import type { StepState } from '../../../src-main/contract/flows.ts'
import { ChecksList } from '../../components/checks-list.tsx'
import { ErrorPanel } from '../../components/error-panel.tsx'
import { SecretsList } from '../../components/secrets-list.tsx'
import { useFollowResult } from '../../components/follow-result.ts'
import { StatusBadge } from '../../components/status-badge.tsx'
import { StepProgressLine } from '../../components/step-progress.tsx'
import { Code } from '../../editor/lazy.tsx'
import { formatMs, toJson } from '../../lib/format.ts'
import { useApp } from '../../store/store.ts'
import { scopeKey, withRevealed } from '../../store/reveal-slice.ts'
import { BudgetBefore } from './budget-before.tsx'
import { ExchangeLink } from './exchange-link.tsx'
import { ReturnWayOn } from './return-way-on.tsx'
import { StepError } from './step-error.tsx'
import { TokenGrants } from './token-grants.tsx'
import { RESTORED_NOTE_ID } from './restored-flow.tsx'

const EXCHANGES_SHOWN = 3

/** The step's exchanges, the first few shown, the rest on demand. */
function StepExchanges({ exchangeIds }: { exchangeIds: string[] }) {
  const [showAll, setShowAll] = useState(false)
  return (
    <div className="step-exchanges">
      <span className="muted small">Exchanges:</span>
      {(showAll ? exchangeIds : exchangeIds.slice(0, EXCHANGES_SHOWN)).map((id, i) => (
        <ExchangeLink key={id} id={id} index={i} />
      ))}
      {exchangeIds.length > EXCHANGES_SHOWN ? (
        <button type="button" className="link small" aria-expanded={showAll} onClick={() => setShowAll(!showAll)}>
          {showAll ? 'fewer' : `and ${exchangeIds.length - EXCHANGES_SHOWN} more`}
        </button>
      ) : null}
    </div>
  )
}

/** The step's output on demand, with its secrets masked until revealed one at a time. */
function StepOutput({ flowId, step }: { flowId: string; step: StepState }) {
  const revealFlowSecret = useApp((s) => s.revealFlowSecret)
  const maskAgain = useApp((s) => s.maskAgain)
  const revealedHere = useApp((s) => s.revealed[scopeKey({ flowId })])
  const revealOp = useApp((s) => s.ops[`secrets.reveal:${flowId}`])
  const [showOutput, setShowOutput] = useState(false)
  return (
    <div>
      <button
        type="button"
        className="link small"
        aria-expanded={showOutput}
        onClick={() => setShowOutput(!showOutput)}
      >
        {showOutput ? 'Hide output' : 'Show output'}
      </button>
      {showOutput ? (
        <>
          <Code value={toJson(step.output)} ariaLabel={`Output of ${step.title}`} />
          <SecretsList
            items={withRevealed(step.secrets, revealedHere)}
            label={`Secrets of ${step.title}`}
            busy={revealOp?.busy}
            onReveal={(ref) => void revealFlowSecret(flowId, ref)}
            onMask={(ref) => maskAgain({ flowId }, ref)}
            onLeave={() => {
              for (const s of step.secrets ?? []) maskAgain({ flowId }, s.ref)
            }}
          />
          <ErrorPanel error={revealOp?.error} title="The secret could not be revealed" />
        </>
      ) : null}
    </div>
  )
}

/** One step of a flow: state, what it does, its checks and summary, its exchanges, and a run button. */
export function StepCard({
  flowId,
  step,
  index,
  explain = true,
}: {
  flowId: string
  step: StepState
  index: number
  explain?: boolean
}) {
  const busy = useApp((s) => !!s.flowBusy[flowId])
  const runStep = useApp((s) => s.runStep)
  const flow = useApp((s) => s.flows[flowId])
  const ran = step.status !== 'idle'
  // After the user runs it (or a run stops on it), the heading takes the focus.
  const heading = useFollowResult<HTMLHeadingElement>(`step:${flowId}:${step.id}`)
  return (
    <article
      className={`step step-${step.status}`}
      aria-label={`Step ${step.title}`}
      data-flow-id={flowId}
      data-step={step.id}
      data-status={step.status}
    >
      <header className="step-head">
        <span className="step-index" aria-hidden="true">
          {index + 1}
        </span>
        <h3 ref={heading} tabIndex={-1}>
          {step.title}
        </h3>
        <StatusBadge status={step.status} />
        {step.ms !== undefined && step.status !== 'running' ? (
          <span className="muted small">{formatMs(step.ms)}</span>
        ) : null}
        <span className="spacer" />
        <button
          type="button"
          className="secondary small"
          disabled={busy || step.status === 'running' || flow?.restored}
          aria-describedby={flow?.restored ? RESTORED_NOTE_ID : undefined}
          onClick={() => void runStep(flowId, step.id)}
          aria-label={`${ran ? 'Re-run' : 'Run'} step ${step.title}`}
        >
          {ran ? 'Re-run' : 'Run'}
        </button>
      </header>
      {explain ? <p className="step-explanation">{step.explanation}</p> : null}
      <StepProgressLine step={step} />
      {step.summary ? <p className="step-summary">{step.summary}</p> : null}
      {flow ? <BudgetBefore flow={flow} step={step} /> : null}
      {step.error ? <StepError title={step.title} error={step.error} /> : null}
      {step.status === 'failed' ? <ReturnWayOn flowId={flowId} error={step.error} /> : null}
      {flow ? <TokenGrants flow={flow} step={step} /> : null}
      <ChecksList checks={step.checks} label={`Checks of ${step.title}`} compact />
      {step.exchangeIds.length ? <StepExchanges exchangeIds={step.exchangeIds} /> : null}
      {step.output !== undefined ? <StepOutput flowId={flowId} step={step} /> : null}
    </article>
  )
}
