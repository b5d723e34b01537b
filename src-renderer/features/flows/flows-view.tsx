import { lazy, Suspense, useEffect, useRef, useState } from 'react'
import { CopyButton } from '../../components/copy-button.tsx'
import { ErrorPanel } from '../../components/error-panel.tsx'
import { StatusBadge } from '../../components/status-badge.tsx'
import { formatTime } from '../../lib/format.ts'
import { flowComplete, type NewFlowRequest } from '../../store/flows-slice.ts'
import { useApp } from '../../store/store.ts'
import { useEnvironmentNow } from '../../store/use-environment-now.ts'
import type { FlowState } from '../../../src-main/contract/flows.ts'
import { BudgetPanel } from '../data/account-data.tsx'
import { flowName } from './flow-name.ts'
import { FlowStartForm } from './flow-start-form.tsx'
import { FlowSteps } from './flow-steps.tsx'
import { RESTORED_NOTE_ID, RestoredFlowNote } from './restored-flow.tsx'
import { consentExpiry } from './consent-expiry.ts'
import { SandboxClockControl } from '../sandbox/sandbox-clock-control.tsx'
import { ConformanceReport } from '../sandbox/conformance-report.tsx'
import { FaultModeBanner, FaultModePanel, useFaultRulesFollowFlows } from '../sandbox/fault-mode-panel.tsx'

const SequenceDiagram = lazy(() => import('../sequence/sequence-diagram.tsx'))

/** The head's two buttons that open (or close) the form of a new flow. */
const NEW_FLOW_BUTTONS = [
  ['ais', 'New AIS flow'],
  ['pis', 'New payment flow'],
] as const

function flowStatus(steps: { status: string }[]): 'done' | 'failed' | 'running' | 'idle' {
  if (steps.some((s) => s.status === 'running')) return 'running'
  if (steps.some((s) => s.status === 'failed')) return 'failed'
  if (steps.length && steps.every((s) => s.status === 'done' || s.status === 'skipped')) return 'done'
  return 'idle'
}

/** The view's title with the buttons that open a new AIS or payment flow's form, and the fault mode's toggle. */
function FlowsViewHead({
  creating,
  setCreating,
  localSandbox,
  faultsShown,
  setFaultsShown,
}: {
  creating: 'ais' | 'pis' | undefined
  setCreating: (kind: 'ais' | 'pis' | undefined) => void
  localSandbox: boolean
  faultsShown: boolean
  setFaultsShown: (shown: boolean) => void
}) {
  return (
    <header className="view-head">
      <h1>Consent flows</h1>
      <div className="actions">
        {NEW_FLOW_BUTTONS.map(([kind, label]) => (
          <button
            key={kind}
            type="button"
            className={creating === kind ? '' : 'secondary'}
            aria-pressed={creating === kind}
            onClick={() => setCreating(creating === kind ? undefined : kind)}
          >
            {label}
          </button>
        ))}
        {localSandbox ? (
          <button
            type="button"
            className={faultsShown ? '' : 'secondary'}
            aria-pressed={faultsShown}
            onClick={() => setFaultsShown(!faultsShown)}
          >
            Fault mode
          </button>
        ) : null}
      </div>
    </header>
  )
}

/** Consent flows: start an AIS or PIS flow, then walk it step by step (or all at once) with live progress. */
export function FlowsView() {
  const order = useApp((s) => s.flowOrder)
  const flows = useApp((s) => s.flows)
  const activeId = useApp((s) => s.activeFlowId)
  const request = useApp((s) => s.flowRequest)
  const takeRequest = useApp((s) => s.takeFlowRequest)
  const [creating, setCreating] = useState<'ais' | 'pis' | undefined>(order.length ? undefined : 'ais')
  const [asked, setAsked] = useState<NewFlowRequest & { seq: number }>()
  // "Start a new consent" (an expired consent's card) opens the form for its client and environment, once.
  useEffect(() => {
    if (!request) return
    setCreating(request.kind)
    setAsked(request)
    takeRequest(request.seq)
  }, [request, takeRequest])
  const initial = asked && asked.kind === creating ? asked : undefined
  const active = activeId ? flows[activeId] : undefined
  const localSandbox = useApp((s) => s.environments.some((e) => e.kind === 'local-sandbox'))
  const [faultsShown, setFaultsShown] = useState(false)
  useFaultRulesFollowFlows()
  return (
    <div className="view">
      <FlowsViewHead
        creating={creating}
        setCreating={setCreating}
        localSandbox={localSandbox}
        faultsShown={faultsShown}
        setFaultsShown={setFaultsShown}
      />
      <FaultModeBanner onShow={faultsShown ? undefined : () => setFaultsShown(true)} />
      {faultsShown ? <FaultModePanel /> : null}
      {creating ? (
        <FlowStartForm
          key={`${creating}:${initial?.seq ?? 0}`}
          kind={creating}
          initial={initial}
          onStarted={() => {
            setCreating(undefined)
            setAsked(undefined)
          }}
        />
      ) : null}
      <div className="split">
        <aside className="split-side">
          <h2>Flows</h2>
          <FlowList onPick={() => setCreating(undefined)} />
        </aside>
        <section className="split-main">
          {active ? (
            <FlowDetail flowId={active.id} />
          ) : (
            <p className="muted">Pick a flow on the left to see its steps.</p>
          )}
        </section>
      </div>
    </div>
  )
}

/**
 * The flows list: the newest page, and "Load more" for the older ones the console keeps, which moves the
 * focus to the first row it added (so a keyboard user goes on from where the list grew).
 */
function FlowList({ onPick }: { onPick: () => void }) {
  const order = useApp((s) => s.flowOrder)
  const flows = useApp((s) => s.flows)
  const activeId = useApp((s) => s.activeFlowId)
  const select = useApp((s) => s.selectFlow)
  const more = useApp((s) => s.flowsMore)
  const loadMore = useApp((s) => s.loadMoreFlows)
  const moreOp = useApp((s) => s.ops['flows.listMore'])
  const rows = useRef(new Map<string, HTMLButtonElement>())
  const [focusId, setFocusId] = useState<string>()
  useEffect(() => {
    if (!focusId) return
    rows.current.get(focusId)?.focus()
    setFocusId(undefined)
  }, [focusId, order])
  if (!order.length) return <p className="muted">No flow yet: start one above.</p>
  return (
    <>
      <ul className="plain-list" aria-label="Flows">
        {order.map((id) => {
          const f = flows[id]!
          return (
            <li key={id}>
              <button
                type="button"
                className="list-item"
                ref={(el) => {
                  if (el) rows.current.set(id, el)
                  else rows.current.delete(id)
                }}
                aria-current={id === activeId ? 'true' : undefined}
                onClick={() => {
                  select(id)
                  onPick()
                }}
              >
                <strong>{flowName(f)}</strong> <StatusBadge status={flowStatus(f.steps)} />{' '}
                <span className="muted small">{formatTime(f.createdAt)}</span>
                {f.restored ? <span className="muted small"> · earlier run</span> : null}
              </button>
            </li>
          )
        })}
      </ul>
      {more > 0 ? (
        <button
          type="button"
          className="secondary"
          disabled={moreOp?.busy}
          onClick={() => void loadMore().then((added) => setFocusId(added[0]))}
        >
          {moreOp?.busy ? 'Loading…' : `Load more (${more} older)`}
        </button>
      ) : null}
      <ErrorPanel error={moreOp?.error} title="The older flows could not be listed" />
    </>
  )
}

/** The flow's title: its kind, environment, client and id (with copy buttons). */
function FlowDetailHead({ flow, environmentName }: { flow: FlowState; environmentName: string | undefined }) {
  return (
    <div className="flow-head">
      <h2>{flow.kind === 'ais' ? 'Account information' : 'Payment'} flow</h2>
      <span className="muted small">
        {environmentName ?? flow.environmentId} · client {flow.clientId ?? '–'}
        {flow.clientId ? (
          <>
            {' '}
            <CopyButton text={flow.clientId} ariaLabel={`Copy client id ${flow.clientId}`} small />
          </>
        ) : null}
        {' · '}
        {flow.id} <CopyButton text={flow.id} ariaLabel={`Copy flow id ${flow.id}`} small />
      </span>
    </div>
  )
}

/** Run the remaining steps, show the flow's exchanges in the inspector, and (AIS) its account data. */
function FlowActions({ flow, busy, complete }: { flow: FlowState; busy: boolean; complete: boolean }) {
  const flowId = flow.id
  const runAll = useApp((s) => s.runAll)
  const setFilter = useApp((s) => s.setExchangeFilter)
  const navigate = useApp((s) => s.navigate)
  return (
    <div className="actions">
      <button
        type="button"
        disabled={busy || complete || flow.restored}
        aria-describedby={flow.restored ? RESTORED_NOTE_ID : undefined}
        onClick={() => void runAll(flowId)}
      >
        {busy ? 'Running…' : 'Run remaining steps'}
      </button>
      <button
        type="button"
        className="secondary"
        onClick={() => {
          navigate('inspector')
          void setFilter({ flowId })
        }}
      >
        Show its exchanges
      </button>
      {flow.kind === 'ais' ? (
        <button
          type="button"
          className="secondary"
          disabled={!complete || flow.restored}
          aria-describedby={flow.restored ? RESTORED_NOTE_ID : undefined}
          onClick={() => navigate('data')}
        >
          Show account data
        </button>
      ) : null}
    </div>
  )
}

/** The flow's steps, or its sequence diagram (loaded on first use), one tab at a time. */
function FlowTabs({ flow }: { flow: FlowState }) {
  const [tab, setTab] = useState<'steps' | 'sequence'>('steps')
  return (
    <>
      <div className="tabs" role="tablist" aria-label="Flow views">
        <button
          type="button"
          role="tab"
          className="tab"
          aria-selected={tab === 'steps'}
          onClick={() => setTab('steps')}
        >
          Steps
        </button>
        <button
          type="button"
          role="tab"
          className="tab"
          aria-selected={tab === 'sequence'}
          onClick={() => setTab('sequence')}
        >
          Sequence diagram
        </button>
      </div>
      {tab === 'steps' ? (
        <FlowSteps flow={flow} />
      ) : (
        <Suspense fallback={<p className="muted">Loading the diagram…</p>}>
          <SequenceDiagram flowId={flow.id} />
        </Suspense>
      )}
    </>
  )
}

function FlowDetail({ flowId }: { flowId: string }) {
  const flow = useApp((s) => s.flows[flowId])!
  const busy = useApp((s) => !!s.flowBusy[flowId])
  const runOpState = useApp((s) => s.ops[`flows.run:${flowId}`])
  const env = useApp((s) => s.environments.find((e) => e.id === flow.environmentId))
  const complete = flowComplete(flow)
  const budget = useApp((s) => s.budgets[flowId])
  const accounts = useApp((s) => s.accountData[flowId])
  return (
    <div aria-label={`${flow.kind.toUpperCase()} flow ${flow.id}`} role="region">
      <FlowDetailHead flow={flow} environmentName={env?.name} />
      {flow.kind === 'ais' ? <ConsentExpiryLine flow={flow} /> : null}
      {flow.restored ? <RestoredFlowNote flow={flow} /> : null}
      <FlowActions flow={flow} busy={busy} complete={complete} />
      <ErrorPanel error={runOpState?.error} title="The run stopped" />
      {env?.kind === 'local-sandbox' ? <SandboxClockControl flow={flow} /> : null}
      {env?.kind === 'local-sandbox' && flow.clientId ? (
        <ConformanceReport
          clientId={flow.clientId}
          refreshKey={flow.steps.filter((s) => s.status === 'done' || s.status === 'failed').length}
        />
      ) : null}
      {budget?.length ? (
        <BudgetPanel budget={budget} environmentId={flow.environmentId} accounts={accounts} level={3} />
      ) : null}
      <FlowTabs flow={flow} />
    </div>
  )
}

/** When the flow's consent expires (from its ExpirationDateTime), once the consent exists. */
function ConsentExpiryLine({ flow }: { flow: FlowState }) {
  const expiry = consentExpiry(flow, useEnvironmentNow(flow.environmentId))
  if (!expiry) return null
  return (
    <p className={`small ${expiry.expired ? 'text-fail' : 'muted'}`} aria-label="Consent expiry">
      {expiry.text}
    </p>
  )
}
