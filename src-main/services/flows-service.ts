import { randomUUID } from 'node:crypto'
import type { AccountDataDto, PsuAbsentBudgetDto, TransactionViewDto } from '../contract/ais-data.ts'
import type { AisFlowInput, CaptureMode, FlowInput, PisFlowInput } from '../contract/api.ts'
import type { SecretItemDto } from '../contract/exchange.ts'
import type { FlowHead, FlowPage, FlowPageQuery, FlowProgress, FlowState } from '../contract/flows.ts'
import { AppError, isAppError } from '../core/app-error.ts'
import { SecretCollector } from '../core/secret-collector.ts'
import { accountData } from '../flows/ais/account-data.ts'
import { AIS_STEPS, type AisFlowContext } from '../flows/ais/ais-context.ts'
import { aisFlowSteps } from '../flows/ais/ais-flow.ts'
import { budgetBeforeStep } from '../flows/ais/budget-before.ts'
import { PsuAbsentBudget, type PsuAbsentCallStore, type PsuAbsentKeying } from '../flows/ais/psu-absent-budget.ts'
import type { CaptureHub } from '../flows/capture/capture-hub.ts'
import { parseRedirect } from '../flows/capture/redirect-params.ts'
import { checkReturn, readReturn, responseModeOf } from '../flows/capture/return-errors.ts'
import { CODE_EXCHANGE_STEP } from '../flows/common/authorisation.ts'
import { DISCOVERY_STEP, type Discovery } from '../flows/common/discovery.ts'
import { refreshTokens, type TokenSet } from '../flows/common/tokens.ts'
import type { FlowContext } from '../flows/flow-context.ts'
import type { PisFlowContext } from '../flows/pis/pis-context.ts'
import { pisFlowSteps } from '../flows/pis/pis-flow.ts'
import { FlowRun } from '../flows/step-machine.ts'
import { maskFlow, withPsuAddress } from './flow-masking.ts'
import { ProgressTeller } from './progress-teller.ts'
import type { EnvironmentClocks } from './environment-clock.ts'
import { flowPage } from './flow-pages.ts'
import type { FlowHistoryStore } from './persistence/flow-history-store.ts'

/** Builds the context a flow runs in: the environment, the client acting, HTTP and signing for them. */
export type FlowContextFactory = (
  environmentId: string,
  clientId: string,
  capture: CaptureMode,
  flowId: string,
) => Promise<FlowContext>

export interface FlowsServiceOptions {
  contextFor: FlowContextFactory
  hub: CaptureHub
  /**
   * Each step's progress, masked, in order, for what leaves the main side (the windows' events). Told on a
   * later turn of the event loop, not inside the step: the step's code goes on (often to its next request)
   * before the masking and the listeners' work run; every progress of a run is told before the run's answer,
   * and a listener that throws is logged, never failing the step.
   */
  emit: (progress: FlowProgress) => void
  /** Whether `emit` has anyone to tell: while not, progress is not masked for it. Default: always. */
  listening?: () => boolean
  /** Each step's progress as made, unmasked, for the main side's followers (the consent list), before `emit`. */
  follow?: (progress: FlowProgress) => void
  /** PIS status polling; tests shorten it. */
  pisPolling?: { intervalMs: number; maxWaitMs: number }
  /** At most this many flows are kept (oldest dropped). */
  maxFlows?: number
  /** Where the PSU-absent calls are kept between runs, and how they are counted. */
  psuAbsent?: { store: PsuAbsentCallStore; keying?: PsuAbsentKeying }
  /** Where the flows of earlier runs are kept (masked); absent: the live runs only. */
  history?: FlowHistoryStore
  /** Where a history that cannot be written is reported. */
  log?: (line: string) => void
  /** Each environment's clock: the PSU-absent budget counts on its consent's bank's clock. */
  clocks?: EnvironmentClocks
  /** The environment a consent was made in (the consent list), for its clock. */
  environmentOfConsent?: (consentId: string) => string | undefined
}

type AnyRun = FlowRun<AisFlowContext> | FlowRun<PisFlowContext>

/**
 * Runs AIS and PIS flows as step machines, keeps them for the UI, and routes captured redirects to them.
 * What leaves it (states, progress events) is masked: tokens and codes in step outputs masked, private keys
 * removed; `reveal` hands one value to its caller and keeps nothing. The runs keep their outputs as they are.
 */
export class FlowsService {
  readonly #flows = new Map<string, AnyRun>()
  readonly #budget: PsuAbsentBudget
  readonly #seenPending = new Map<string, Map<string, TransactionViewDto[]>>()

  readonly #progress: ProgressTeller

  constructor(private readonly options: FlowsServiceOptions) {
    const clocks = options.clocks
    this.#budget = new PsuAbsentBudget(
      clocks ? (consentId) => clocks.now(this.#environmentOf(consentId)) : Date.now,
      options.psuAbsent?.store,
      options.psuAbsent?.keying,
    )
    const { follow, listening, log } = options
    this.#progress = new ProgressTeller(options.emit, { follow, listening, log })
  }

  /**
   * One secret of a flow's state (its `ref` from a step's `secrets`): its value, for the caller alone.
   * Nothing is kept: the flow's states and events stay masked for every window. A private key is never revealed.
   */
  reveal(flowId: string, ref: string): { value: string; item: SecretItemDto } {
    const run = this.#run(flowId)
    const collector = new SecretCollector()
    maskFlow(run.state(), collector)
    const hit = collector.find(ref)
    if (!hit)
      throw new AppError('NOT_FOUND', {
        what: `Flow ${flowId} has no secret ${ref}.`,
        cause: 'The handle comes from another flow, or from an earlier console run.',
        fix: "Open the flow again and reveal an item of a step's list of secrets.",
      })
    if (!hit.item.revealable)
      throw new AppError('INVALID_INPUT', {
        what: `The ${hit.item.name} in ${hit.item.where} is private key material.`,
        cause: 'Private keys never leave the main side, in any encoding.',
        fix: 'Use the key files of the TPP identity where you need them; the console keeps them encrypted.',
      })
    return { value: hit.value, item: { ...hit.item, shown: hit.value, revealed: true } }
  }

  async start(input: FlowInput): Promise<FlowState> {
    if (input?.kind !== 'ais' && input?.kind !== 'pis')
      throw new AppError('INVALID_INPUT', {
        what: 'Unknown flow kind.',
        cause: `kind must be "ais" or "pis", got ${JSON.stringify((input as { kind?: unknown })?.kind)}.`,
        fix: 'Start an AIS or a PIS flow.',
      })
    const id = randomUUID()
    const base = await this.options.contextFor(input.environmentId, input.clientId, input.capture, id)
    let run: AnyRun
    if (input.kind === 'ais') {
      const seen = this.#seenPending.get(input.clientId) ?? new Map<string, TransactionViewDto[]>()
      this.#seenPending.set(input.clientId, seen)
      const ctx: AisFlowContext = {
        ...base,
        ais: {
          input: withPsuAddress(input as AisFlowInput, base.environment),
          budget: this.#budget,
          seenPending: seen,
        },
      }
      run = new FlowRun(id, 'ais', input.environmentId, aisFlowSteps(input), ctx, this.#progress.made)
    } else {
      const polling = this.options.pisPolling ?? { intervalMs: 1000, maxWaitMs: 60_000 }
      const ctx: PisFlowContext = {
        ...base,
        pis: {
          input: input as PisFlowInput,
          pollIntervalMs: polling.intervalMs,
          maxWaitMs: polling.maxWaitMs,
          sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
        },
      }
      run = new FlowRun(id, 'pis', input.environmentId, pisFlowSteps(input), ctx, this.#progress.made)
    }
    run.clientId = input.clientId
    this.#flows.set(id, run)
    const max = this.options.maxFlows ?? 50
    for (const key of [...this.#flows.keys()].slice(0, Math.max(0, this.#flows.size - max))) {
      this.#flows.delete(key)
    }
    return this.#kept(run)
  }

  /** The environment of a consent: the consent list's, else the live AIS run that made it. */
  #environmentOf(consentId: string): string | undefined {
    const known = this.options.environmentOfConsent?.(consentId)
    if (known) return known
    for (const run of this.#flows.values()) {
      if (run.kind !== 'ais') continue
      try {
        if (run.output(AIS_STEPS.consent).consentId === consentId) return run.environmentId
      } catch {
        // no consent yet
      }
    }
    return undefined
  }

  /** The run's masked state, kept in the history as it is now (a history that cannot be written is reported, not fatal). */
  #kept(run: AnyRun): FlowState {
    // Every progress the run made is told before its state is kept and answered.
    this.#progress.tellNow()
    const state = maskFlow(run.state())
    try {
      this.options.history?.put(state)
    } catch (err) {
      this.options.log?.(`OB Console: flow ${run.id} is not kept in the flow history (${(err as Error).message}).`)
    }
    return state
  }

  /** The environment's clock read again before a figure that depends on it. */
  async #syncClock(environmentId: string): Promise<void> {
    await this.options.clocks?.refresh(environmentId)
  }

  /**
   * Before a run's steps: the clock read again only when they count the PSU-absent allowance (an AIS flow
   * with the PSU absent), the one figure of a run that depends on the bank's clock. A PSU-present or payment
   * flow makes no call for it.
   */
  async #syncClockFor(run: AnyRun): Promise<void> {
    if (run.kind === 'ais' && !(run.ctx as AisFlowContext).ais.input.psuPresent)
      await this.#syncClock(run.environmentId)
  }

  /** A flow of an earlier run, read from the history (masked already). */
  #restored(flowId: string): FlowState | undefined {
    const kept = this.options.history?.get(flowId)
    return kept ? { ...kept, restored: true } : undefined
  }

  #run(flowId: string): AnyRun {
    const run = this.#flows.get(flowId)
    if (!run && this.#restored(flowId))
      throw new AppError('INVALID_INPUT', {
        what: `Flow ${flowId} is one of an earlier console run: it can be viewed, not run again.`,
        cause: 'Its tokens, codes and context lived in that run only; the flow history keeps its masked steps.',
        fix: 'Start a new flow like this one (same kind, environment and client).',
      })
    if (!run)
      throw new AppError('NOT_FOUND', {
        what: `No flow "${flowId}".`,
        cause: 'Flows live as long as the console runs; it may have restarted.',
        fix: 'Start the flow again.',
      })
    return run
  }

  /**
   * Who a live flow is, without its steps (nothing to mask): what a listener to its progress needs. Undefined
   * for a flow that is not live.
   */
  head(flowId: string): FlowHead | undefined {
    const run = this.#flows.get(flowId)
    return run && { id: run.id, kind: run.kind, environmentId: run.environmentId, clientId: run.clientId }
  }

  get(flowId: string): FlowState {
    const live = this.#flows.get(flowId)
    return live ? maskFlow(live.state()) : (this.#restored(flowId) ?? maskFlow(this.#run(flowId).state()))
  }

  /** A page of the flows, newest first: the live runs and the history's (those marked `restored`). */
  list(query: FlowPageQuery = {}): FlowPage {
    const live = [...this.#flows.values()].map((r) => maskFlow(r.state()))
    const liveIds = new Set(live.map((f) => f.id))
    const kept = (this.options.history?.read() ?? [])
      .filter((f) => !liveIds.has(f.id))
      .map((f) => ({ ...f, restored: true }))
    return flowPage(live, kept, query)
  }

  async runStep(flowId: string, stepId: string): Promise<FlowState> {
    const run = this.#run(flowId)
    if (!run.stepIds().includes(stepId))
      throw new AppError('NOT_FOUND', {
        what: `No step "${stepId}" in this ${run.kind} flow.`,
        cause: `Its steps are: ${run.stepIds().join(', ')}.`,
        fix: 'Pick one of them.',
      })
    return this.#runAndKeep(run, () => run.runStep(stepId))
  }

  async runAll(flowId: string, until?: string): Promise<FlowState> {
    const run = this.#run(flowId)
    // The run's calls to {base_url} (the consent, the data or the payment) take one mutual TLS connection: opened
    // now, while its first steps read discovery and the bank's keys and get a token on {auth_url}.
    run.ctx.http.preconnect(run.ctx.environment.baseUrl)
    return this.#runAndKeep(run, () => run.runAll({ until }))
  }

  /** Runs steps on the environment's clock; the state is kept in the history however they end, and answered (masked once). */
  async #runAndKeep(run: AnyRun, work: () => Promise<unknown>): Promise<FlowState> {
    await this.#syncClockFor(run)
    try {
      await work()
    } catch (err) {
      this.#kept(run)
      throw err
    }
    return this.#kept(run)
  }

  /**
   * A redirect URL pasted into a waiting flow. Each problem is its own coded error with its way on
   * (`AUTH_RETURN_*`, `details.wayOn`), and the flow keeps waiting; a return for another waiting flow
   * names it. The bank's `error=` return ends the wait: the capture step fails with it (a new consent
   * when the PSU refused), so the error is shown once, on the step.
   */
  capture(flowId: string, url: string): FlowState {
    const run = this.#run(flowId)
    const captured = readReturn(url, 'pasted', true)
    const awaiting = run.awaiting
    if (!awaiting)
      throw new AppError('INVALID_INPUT', {
        what: 'This flow is not waiting for the PSU.',
        cause: 'Its authorisation step is not running.',
        fix: 'Run the "PSU authorisation" step first, then paste the URL.',
      })
    try {
      checkReturn(
        captured,
        { state: awaiting.state, responseMode: responseModeOf(awaiting.authorisationUrl) },
        { repaste: true, waitingFlowFor: (state) => this.#waitingOn(state, flowId) },
      )
    } catch (err) {
      if (!(isAppError(err) && err.code === 'AUTH_RETURN_ERROR')) throw err
    }
    this.options.hub.deliver(captured)
    return this.#kept(run)
  }

  /** The other flow waiting for the PSU's return with this state. */
  #waitingOn(state: string, except: string): string | undefined {
    for (const [id, run] of this.#flows) if (id !== except && run.awaiting?.state === state) return id
    return undefined
  }

  /** Hands a deeplink (desktop custom scheme) to whichever flow waits on its state. */
  deliverDeeplink(url: string): boolean {
    try {
      return this.options.hub.deliver(parseRedirect(url, 'deeplink'))
    } catch {
      return false
    }
  }

  accountData(flowId: string): AccountDataDto[] {
    const run = this.#run(flowId)
    if (run.kind !== 'ais')
      throw new AppError('INVALID_INPUT', {
        what: 'Account data exists for AIS flows only.',
        cause: 'This is a payment flow.',
        fix: 'Open an AIS flow.',
      })
    return accountData(run)
  }

  async budget(flowId: string): Promise<PsuAbsentBudgetDto[]> {
    const run = this.#run(flowId)
    await this.#syncClock(run.environmentId)
    let consentId: string
    try {
      consentId = run.output(AIS_STEPS.consent).consentId
    } catch {
      return []
    }
    const known = this.#budget.all(consentId)
    return known.length ? known : [this.#budget.budget(consentId, undefined, 'accounts')]
  }

  /**
   * What the step would spend of the PSU-absent allowance, asked before it runs: one row per call it makes,
   * each with what will be left when that call is made. Empty for a PSU present, or a step that spends none.
   */
  async budgetBefore(flowId: string, stepId: string): Promise<PsuAbsentBudgetDto[]> {
    const run = this.#run(flowId)
    if (run.kind !== 'ais') return []
    await this.#syncClock(run.environmentId)
    return budgetBeforeStep(stepId, (run.ctx as AisFlowContext).ais.input, run, this.#budget)
  }

  /** The PSU-absent allowance of a consent, kept across restarts (the consent list's view; no flow needed). */
  async consentBudget(consentId: string): Promise<PsuAbsentBudgetDto[]> {
    const env = this.#environmentOf(consentId)
    if (env) await this.#syncClock(env)
    const known = this.#budget.all(consentId)
    return known.length ? known : [this.#budget.budget(consentId, undefined, 'accounts')]
  }

  /**
   * The refresh_token grant on a flow's PSU-authorised token (where discovery advertises it): the code
   * exchange's output takes the new token set, so the data steps run again with it.
   */
  async refreshToken(flowId: string): Promise<{ flow: FlowState; exchangeId: string }> {
    const run = this.#run(flowId)
    let discovery: Discovery
    let current: TokenSet
    try {
      discovery = run.output(DISCOVERY_STEP)
      current = run.output(CODE_EXCHANGE_STEP)
    } catch {
      throw new AppError('FLOW_STEP_NOT_READY', {
        what: 'This flow has no PSU-authorised token to refresh yet.',
        cause: 'Its discovery and code exchange steps have not both run.',
        fix: 'Run the flow up to the code exchange first.',
      })
    }
    const { tokens, exchangeId } = await refreshTokens(run.ctx, discovery, current)
    run.updateOutput(CODE_EXCHANGE_STEP, tokens, {
      exchangeId,
      summary: `access token refreshed (refresh_token grant), ${tokens.expiresIn ?? '?'} s`,
    })
    return { flow: this.#kept(run), exchangeId }
  }
}
