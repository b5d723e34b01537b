import type { UiError } from '../../api/transport.ts'
import { useApp } from '../../store/store.ts'

/**
 * The errors that carry their way on in `details.wayOn`: the PSU's return (`AUTH_RETURN_*`), and a step whose
 * checks failed with a way on of its own (the ID token checks: a new consent).
 */
export function hasWayOn(error: UiError | undefined): boolean {
  return !!error?.code?.startsWith('AUTH_RETURN_') || (error?.code === 'FLOW_CHECK_FAILED' && !!error.details?.wayOn)
}

/**
 * The way on from a refused or broken return (or an ID token that failed its checks), as buttons, so nobody goes round the same loop: a new consent
 * when the PSU refused (never the same one again), the same consent authorised again with a new request,
 * the URL pasted again (the field cleared and focused), or the URL handed to the flow it belongs to.
 */
export function ReturnWayOn({
  flowId,
  error,
  url,
  onPasteAgain,
}: {
  flowId: string
  error: UiError | undefined
  url?: string
  onPasteAgain?: () => void
}) {
  const input = useApp((s) => s.flowInputs[flowId])
  const busy = useApp((s) => !!s.flowBusy[flowId])
  const startFlow = useApp((s) => s.startFlow)
  const runAll = useApp((s) => s.runAll)
  const runStep = useApp((s) => s.runStep)
  const captureRedirect = useApp((s) => s.captureRedirect)
  const selectFlow = useApp((s) => s.selectFlow)
  if (!error || !hasWayOn(error)) return null
  const wayOn = String(error.details?.wayOn ?? '')
  const other = typeof error.details?.otherFlowId === 'string' ? error.details.otherFlowId : undefined
  const newConsent = async () => {
    if (!input) return
    const flow = await startFlow(input)
    if (flow) await runAll(flow.id)
  }
  const authoriseAgain = async () => {
    const flow = await runStep(flowId, 'authorisation-url')
    if (flow?.steps.find((s) => s.id === 'authorisation-url')?.status === 'done') await runAll(flowId)
  }
  return (
    <div className="actions way-on" aria-label="Way on">
      {wayOn === 'new-consent' ? (
        input ? (
          <button type="button" disabled={busy} onClick={() => void newConsent()}>
            Start a new consent
          </button>
        ) : (
          <p className="small">
            Start a new consent: "New AIS flow" or "New payment flow" above, with the same client.
          </p>
        )
      ) : null}
      {wayOn === 'authorise-again' ? (
        <button type="button" disabled={busy} onClick={() => void authoriseAgain()}>
          Authorise again (a new request for the same consent)
        </button>
      ) : null}
      {wayOn === 'paste-again' && onPasteAgain ? (
        <button type="button" className="secondary" onClick={onPasteAgain}>
          Paste again
        </button>
      ) : null}
      {wayOn === 'other-flow' && other && url ? (
        <button
          type="button"
          onClick={async () => {
            if (await captureRedirect(other, url)) selectFlow(other)
          }}
        >
          Hand it to flow {other.slice(0, 8)}…
        </button>
      ) : null}
    </div>
  )
}
