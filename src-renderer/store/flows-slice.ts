/**
 * Consent flows (AIS, PIS) as step machines drawn by the UI: started, run whole or step by step, kept
 * live by `flows.onDidProgress`, and handed the PSU's return when they wait for it.
 */
import type { AccountDataDto, PsuAbsentBudgetDto } from '../../src-main/contract/ais-data.ts'
import type { FlowInput } from '../../src-main/contract/api.ts'
import type { FlowProgress, FlowState, StepState } from '../../src-main/contract/flows.ts'
import { runOp } from './ops.ts'
import type { SliceDeps } from './types.ts'

export interface FlowsSlice {
  flows: Record<string, FlowState>
  /** Flow ids of the flows list, newest first (the pages loaded so far). */
  flowOrder: string[]
  /** How many older flows the console keeps past the loaded pages, and the cursor of the next page. */
  flowsMore: number
  flowsNext?: string
  activeFlowId?: string
  /** Flows with a call in flight (runAll, runStep), so their buttons wait. */
  flowBusy: Record<string, boolean>
  /** The inputs of flows started from this window (how each captures the PSU's return). */
  flowInputs: Record<string, FlowInput>
  accountData: Record<string, AccountDataDto[]>
  budgets: Record<string, PsuAbsentBudgetDto[]>
  /** The newest page of flows (the list starts again from it). */
  loadFlows(): Promise<void>
  /** The next older page, added after those shown; answers the ids it added. */
  loadMoreFlows(): Promise<string[]>
  /** Flows named by id (the inspector's exchanges' flows) that the loaded pages lack, fetched into `flows`. */
  loadFlowsById(ids: string[]): Promise<void>
  selectFlow(flowId: string | undefined): void
  startFlow(input: FlowInput): Promise<FlowState | undefined>
  runAll(flowId: string, until?: string): Promise<FlowState | undefined>
  runStep(flowId: string, stepId: string): Promise<FlowState | undefined>
  captureRedirect(flowId: string, url: string): Promise<FlowState | undefined>
  /** The refresh_token grant on the flow's token (ops key `flows.refreshToken:<id>`). */
  refreshFlowToken(flowId: string): Promise<FlowState | undefined>
  refreshFlow(flowId: string): Promise<void>
  /**
   * Reveals one secret of a flow's steps (its ref from a step's `secrets`) in this window: the step's list of
   * secrets shows it until masked again (the flow's state, on every side, stays masked).
   */
  revealFlowSecret(flowId: string, ref: string): Promise<void>
  applyProgress(progress: FlowProgress): void
  /**
   * A new flow asked for from elsewhere (an expired consent's "Start a new consent"): the consent flows view
   * opens its form for this client and environment. `seq` tells one request from the next.
   */
  flowRequest?: NewFlowRequest & { seq: number }
  requestNewFlow(request: NewFlowRequest): void
  /** The consent flows view took the request (only that one: a newer request stays). */
  takeFlowRequest(seq: number): void
  loadAccountData(flowId: string): Promise<AccountDataDto[] | undefined>
  loadBudget(flowId: string): Promise<void>
}

export interface NewFlowRequest {
  kind: 'ais' | 'pis'
  environmentId: string
  clientId: string
}

let nextRequest = 1

const TERMINAL = new Set(['done', 'failed', 'skipped'])

/**
 * Whether a progress event is older than what the store holds: events can arrive after the call that
 * caused them has answered with a newer state (SSE and HTTP travel separately).
 */
export function isStale(current: StepState | undefined, incoming: StepState): boolean {
  if (!current) return false
  if (current.startedAt && incoming.startedAt && incoming.startedAt < current.startedAt) return true
  return current.startedAt === incoming.startedAt && incoming.status === 'running' && TERMINAL.has(current.status)
}

/**
 * The step whose card shows what a run by the user came to: the first that failed, else the last of those it
 * ran (`ran`: the steps not done before). None while the flow waits for the PSU (its panel takes the focus).
 */
export function resultStep(flow: FlowState, ran: ReadonlySet<string>): string | undefined {
  if (flow.awaiting) return undefined
  const failed = flow.steps.find((s) => s.status === 'failed')
  if (failed) return failed.id
  return flow.steps.filter((s) => ran.has(s.id) && s.status === 'done').at(-1)?.id
}

/** True when every step of the flow is done (or skipped). */
export function flowComplete(flow: FlowState | undefined): boolean {
  return !!flow && flow.steps.length > 0 && flow.steps.every((s) => s.status === 'done' || s.status === 'skipped')
}

type Deps = SliceDeps & { putFlow(flow: FlowState): void; busy(flowId: string, on: boolean): void }

const byNewest = (a: FlowState, b: FlowState) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id)

/** Loading the flows list page by page, and single flows the inspector names. */
function listActions({ set, get, api }: Deps): Pick<FlowsSlice, 'loadFlows' | 'loadMoreFlows' | 'loadFlowsById'> {
  return {
    async loadFlows() {
      const page = await runOp(set, 'flows.list', () => api.call('flows.list', {}))
      if (!page) return
      const sorted = [...page.flows].sort(byNewest)
      set((s) => ({
        flows: { ...s.flows, ...Object.fromEntries(sorted.map((f) => [f.id, f])) },
        flowOrder: sorted.map((f) => f.id),
        flowsMore: page.more,
        flowsNext: page.next,
      }))
    },
    async loadMoreFlows() {
      const before = get().flowsNext
      if (!before) return []
      const page = await runOp(set, 'flows.listMore', () => api.call('flows.list', { before }))
      if (!page) return []
      const added = page.flows.filter((f) => !get().flowOrder.includes(f.id))
      set((s) => ({
        flows: { ...s.flows, ...Object.fromEntries(page.flows.map((f) => [f.id, f])) },
        flowOrder: [...s.flowOrder, ...added.map((f) => f.id)],
        flowsMore: page.more,
        flowsNext: page.next,
      }))
      return added.map((f) => f.id)
    },
    async loadFlowsById(ids) {
      const missing = [...new Set(ids)].filter((id) => !get().flows[id])
      if (!missing.length) return
      const page = await runOp(set, 'flows.listById', () =>
        api.call('flows.list', { ids: missing, limit: Math.min(500, missing.length) }),
      )
      if (page) set((s) => ({ flows: { ...s.flows, ...Object.fromEntries(page.flows.map((f) => [f.id, f])) } }))
    },
  }
}

/** Starting flows and running their steps. */
function runActions({ set, get, api, putFlow, busy }: Deps): Pick<FlowsSlice, 'startFlow' | 'runAll' | 'runStep'> {
  /** After a run: the sandbox clock followed, the result shown, an AIS flow's data and budget loaded. */
  const afterRun = async (flow: FlowState, ran: ReadonlySet<string>) => {
    putFlow(flow)
    void get().followSandboxClock(flow.environmentId)
    const target = resultStep(flow, ran)
    if (target) get().followResult(`step:${flow.id}:${target}`)
    if (flow.kind === 'ais' && flowComplete(flow))
      await Promise.all([get().loadAccountData(flow.id), get().loadBudget(flow.id)])
  }
  return {
    async startFlow(input) {
      const flow = await runOp(set, `flows.start:${input.kind}`, () => api.call('flows.start', input))
      if (flow) {
        putFlow(flow)
        set((s) => ({ activeFlowId: flow.id, flowInputs: { ...s.flowInputs, [flow.id]: input } }))
      }
      return flow
    },
    async runAll(flowId, until) {
      const before = get().flows[flowId]?.steps ?? []
      const notDone = new Set(before.filter((s) => s.status !== 'done' && s.status !== 'skipped').map((s) => s.id))
      busy(flowId, true)
      const flow = await runOp(set, `flows.run:${flowId}`, () =>
        api.call('flows.runAll', until ? { flowId, until } : { flowId }),
      )
      busy(flowId, false)
      // A flow started here has no state before its run: every step is one it ran.
      if (flow) await afterRun(flow, before.length ? notDone : new Set(flow.steps.map((s) => s.id)))
      return flow
    },
    async runStep(flowId, stepId) {
      busy(flowId, true)
      const flow = await runOp(set, `flows.run:${flowId}`, () => api.call('flows.runStep', { flowId, stepId }))
      busy(flowId, false)
      if (flow) await afterRun(flow, new Set([stepId]))
      return flow
    },
  }
}

/** What keeps a flow's state current: captured returns, refreshed tokens, progress events, reads. */
function stateActions(
  { set, get, api, putFlow }: Deps,
  scheduleRefresh: (flowId: string) => void,
): Pick<FlowsSlice, 'captureRedirect' | 'refreshFlowToken' | 'refreshFlow' | 'applyProgress'> {
  return {
    async captureRedirect(flowId, url) {
      const flow = await runOp(set, `flows.capture:${flowId}`, () => api.call('flows.capture', { flowId, url }))
      if (flow) putFlow(flow)
      return flow
    },
    async refreshFlowToken(flowId) {
      const done = await runOp(set, `flows.refreshToken:${flowId}`, () => api.call('flows.refreshToken', { flowId }))
      if (done) putFlow(done.flow)
      return done?.flow
    },
    async refreshFlow(flowId) {
      const flow = await runOp(set, `flows.get:${flowId}`, () => api.call('flows.get', { flowId }))
      if (!flow) return
      const current = get().flows[flowId]
      // Keep step states newer than the answer (events that overtook it).
      const steps = flow.steps.map((s) => {
        const mine = current?.steps.find((c) => c.id === s.id)
        return mine && isStale(mine, s) ? mine : s
      })
      putFlow({ ...flow, steps })
    },
    applyProgress({ flowId, step }) {
      const flow = get().flows[flowId]
      if (!flow) {
        scheduleRefresh(flowId)
        return
      }
      const current = flow.steps.find((s) => s.id === step.id)
      if (isStale(current, step)) return
      const steps = current ? flow.steps.map((s) => (s.id === step.id ? step : s)) : [...flow.steps, step]
      const awaiting =
        flow.awaiting && flow.awaiting.stepId === step.id && TERMINAL.has(step.status) ? undefined : flow.awaiting
      putFlow({ ...flow, steps, awaiting })
      // A running step may be waiting for the PSU: the flow's state says where to send them.
      if (step.status === 'running') scheduleRefresh(flowId)
    },
  }
}

/** Selecting a flow, new-flow requests from other views, and what an AIS flow read. */
function viewActions({
  set,
  get,
  api,
}: Deps): Pick<
  FlowsSlice,
  'selectFlow' | 'revealFlowSecret' | 'requestNewFlow' | 'takeFlowRequest' | 'loadAccountData' | 'loadBudget'
> {
  return {
    selectFlow(flowId) {
      set({ activeFlowId: flowId })
      const flow = flowId ? get().flows[flowId] : undefined
      if (flowId && flow?.kind === 'ais' && !flow.restored && !get().accountData[flowId] && flowComplete(flow))
        void get().loadAccountData(flowId)
    },
    async revealFlowSecret(flowId, ref) {
      await get().reveal({ flowId }, ref)
    },
    requestNewFlow(request) {
      set({ flowRequest: { ...request, seq: nextRequest++ } })
      get().navigate('flows')
    },
    takeFlowRequest(seq) {
      if (get().flowRequest?.seq === seq) set({ flowRequest: undefined })
    },
    async loadAccountData(flowId) {
      const data = await runOp(set, `ais.accountData:${flowId}`, () => api.call('ais.accountData', { flowId }))
      if (data) set((s) => ({ accountData: { ...s.accountData, [flowId]: data } }))
      return data
    },
    async loadBudget(flowId) {
      const budget = await runOp(set, `ais.budget:${flowId}`, () => api.call('ais.budget', { flowId }))
      if (budget) set((s) => ({ budgets: { ...s.budgets, [flowId]: budget } }))
    },
  }
}

export function flowsSlice(base: SliceDeps): FlowsSlice {
  const { set, get, timers } = base
  const t = timers ?? {
    setTimeout: (fn: () => void, ms: number) => setTimeout(fn, ms),
    clearTimeout: (id: unknown) => clearTimeout(id as number),
  }
  const refreshTimers = new Map<string, unknown>()
  const deps: Deps = {
    ...base,
    putFlow: (flow) =>
      set((s) => ({
        flows: { ...s.flows, [flow.id]: flow },
        flowOrder: s.flowOrder.includes(flow.id) ? s.flowOrder : [flow.id, ...s.flowOrder],
      })),
    busy: (flowId, on) => set((s) => ({ flowBusy: { ...s.flowBusy, [flowId]: on } })),
  }
  const scheduleRefresh = (flowId: string) => {
    if (refreshTimers.has(flowId)) return
    refreshTimers.set(
      flowId,
      t.setTimeout(() => {
        refreshTimers.delete(flowId)
        void get().refreshFlow(flowId)
      }, 50),
    )
  }
  return {
    flows: {},
    flowOrder: [],
    flowsMore: 0,
    flowBusy: {},
    flowInputs: {},
    accountData: {},
    budgets: {},
    ...listActions(deps),
    ...runActions(deps),
    ...stateActions(deps, scheduleRefresh),
    ...viewActions(deps),
  }
}
