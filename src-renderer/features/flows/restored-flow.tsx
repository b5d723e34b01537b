import type { FlowState } from '../../../src-main/contract/flows.ts'
import { useApp } from '../../store/store.ts'

export const RESTORED_NOTE_ID = 'restored-flow-note'

/**
 * A flow of an earlier console run (from the flow history): why it cannot run again, and a new flow of the
 * same kind for the same environment and client.
 */
export function RestoredFlowNote({ flow }: { flow: FlowState }) {
  const requestNewFlow = useApp((s) => s.requestNewFlow)
  const envKnown = useApp((s) => s.environments.some((e) => e.id === flow.environmentId))
  const clientId = flow.clientId
  const canStart = envKnown && !!clientId && (flow.kind === 'ais' || flow.kind === 'pis')
  return (
    <div className="card" role="note" id={RESTORED_NOTE_ID}>
      <p>
        This flow is from an earlier console run: its steps, results and errors are kept (tokens and codes masked), but
        it cannot run again, as its tokens and the PSU&apos;s authorisation lived in that run only.
      </p>
      {canStart ? (
        <button
          type="button"
          className="secondary"
          onClick={() =>
            requestNewFlow({ kind: flow.kind as 'ais' | 'pis', environmentId: flow.environmentId, clientId: clientId! })
          }
        >
          Start a new flow like this one
        </button>
      ) : (
        <p className="muted small">
          {envKnown ? 'It names no client' : 'Its environment is no longer in the console'}: start a new flow above.
        </p>
      )}
    </div>
  )
}
