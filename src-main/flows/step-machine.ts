import type { CheckResult } from '../contract/checks.ts'
import { AppError } from '../core/app-error.ts'
import { ProgressPacer } from './progress-pacer.ts'
import { toStepError } from './step-error.ts'
import type { FlowKind, FlowProgress, FlowState, StepProgress, StepState } from '../contract/flows.ts'

/**
 * A step's id that carries the type of the step's output: the step declares it (`StepDefinition<C, Out>`
 * with `id: StepKey<Out>`), and a later step reads the output through it with no cast
 * (`scope.output(CODE_EXCHANGE_STEP)` is the code exchange's `TokenSet`). It is the id string itself at run time.
 */
export type StepKey<Out> = string & { readonly [stepOutput]: Out }
declare const stepOutput: unique symbol

/** The key of a step whose output is an `Out` (a plain id string is no key: the type of its output is unknown). */
export function stepKey<Out>(id: string): StepKey<Out> {
  return id as StepKey<Out>
}

/** What a step's run gets: where to note the exchanges it made, and the outputs of earlier steps. */
export interface StepScope {
  /** Note an exchange id (an HTTP call the step made) so the UI can open it. */
  exchange(id: string): void
  /** The output of an earlier step that has run; throws naming the step when it has not. */
  output: <T>(step: StepKey<T>) => T
  /** Whether an earlier step has an output (ran successfully). */
  has(stepId: string): boolean
  /**
   * Marks the flow as waiting for the PSU (or clears it with undefined). Marking it emits the running step
   * again, so a subscriber reads where to send the PSU from the flow's state as soon as it is known.
   */
  setAwaiting(awaiting: FlowState['awaiting']): void
  /** The flow's id. */
  flowId: string
  /**
   * Reports how far the step got (emitted as a progress event, at most every PROGRESS_INTERVAL_MS with the
   * newest report; cleared when the step ends).
   */
  progress?(progress: StepProgress): void
}

export interface StepOutcome<Out = unknown> {
  summary?: string
  output?: Out
  checks?: CheckResult[]
  /** The step did not apply (e.g. the consent lacks the permission): shown as skipped; later steps go on. */
  skipped?: boolean
  /**
   * The step's own way on when one of its checks fails (else the first failed check's hint is the fix):
   * `fix` the sentence, `wayOn` the action the UI offers for it (as the PSU return's errors do: `new-consent`).
   */
  whenChecksFail?: { fix: string; wayOn?: 'new-consent' }
}

export interface StepDefinition<C, Out = unknown> {
  id: StepKey<Out>
  title: string
  explanation: string
  /** Steps that must be done before this one runs. */
  requires?: ReadonlyArray<StepKey<unknown>>
  run(ctx: C, scope: StepScope): Promise<StepOutcome<Out>>
}

/**
 * A copy of a step's state for a caller or an event: its lists, checks and error are copied; its output is
 * shared, never copied. Outputs are read-only once the step has finished (later steps read them, nothing
 * changes them), and can be large (every transaction of an account): a deep copy on every event and state
 * read cost more than a page of transactions on the wire.
 */
function snapshot(s: StepState): StepState {
  return {
    ...s,
    exchangeIds: [...s.exchangeIds],
    checks: s.checks.map((c) => ({ ...c })),
    ...(s.error ? { error: structuredClone(s.error) } : {}),
  }
}

/**
 * A step whose checks failed: each failed check named with what was expected and what came, and the step's own
 * way on (else the first failed check's hint).
 */
function checksFailed(title: string, failed: CheckResult[], outcome: StepOutcome): AppError {
  return new AppError('FLOW_CHECK_FAILED', {
    what: `${failed.length} check${failed.length > 1 ? 's' : ''} of "${title}" failed: ${failed.map((c) => c.name).join(', ')}.`,
    cause: failed.map((c) => `${c.name}: expected ${c.expected ?? '?'}, got ${c.actual ?? '?'}`).join('; '),
    fix:
      outcome.whenChecksFail?.fix ??
      failed.find((c) => c.hint)?.hint ??
      'See each failed check for the values compared.',
    ...(outcome.whenChecksFail?.wayOn ? { details: { wayOn: outcome.whenChecksFail.wayOn } } : {}),
  })
}

/**
 * A flow as an explicit step machine: ordered steps, each re-runnable, each recording what it sent and
 * got, its checks and its outcome; every change is emitted as a progress event. A step whose checks fail
 * is failed (its output kept, so the UI can show what came back).
 */
export class FlowRun<C> {
  readonly #steps: Map<string, { def: StepDefinition<C>; state: StepState }>
  readonly #outputs = new Map<string, unknown>()
  awaiting?: FlowState['awaiting']
  clientId?: string
  /** When the flow was made: fixed once (the flows list shows and sorts by it). */
  readonly createdAt: string

  constructor(
    readonly id: string,
    readonly kind: FlowKind,
    readonly environmentId: string,
    steps: StepDefinition<C>[],
    readonly ctx: C,
    private readonly emit: (progress: FlowProgress) => void,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.createdAt = now().toISOString()
    this.#steps = new Map(
      steps.map((def) => [
        def.id,
        {
          def,
          state: {
            id: def.id,
            title: def.title,
            explanation: def.explanation,
            status: 'idle',
            exchangeIds: [],
            checks: [],
          },
        },
      ]),
    )
  }

  state(): FlowState {
    return {
      id: this.id,
      kind: this.kind,
      environmentId: this.environmentId,
      clientId: this.clientId,
      steps: [...this.#steps.values()].map((s) => snapshot(s.state)),
      awaiting: this.awaiting,
      createdAt: this.createdAt,
    }
  }

  output<T>(stepId: StepKey<T>): T {
    if (!this.#outputs.has(stepId))
      throw new AppError('FLOW_STEP_NOT_READY', {
        what: `The step "${stepId}" has not run yet.`,
        cause: 'A later step needs what it produces.',
        fix: `Run "${this.#steps.get(stepId)?.def.title ?? stepId}" first.`,
      })
    return this.#outputs.get(stepId) as T
  }

  /** Whether the step has an output (ran successfully). */
  has(stepId: string): boolean {
    return this.#outputs.has(stepId)
  }

  stepIds(): string[] {
    return [...this.#steps.keys()]
  }

  /** Runs (or re-runs) one step. Never throws: the outcome is in the returned state. */
  async runStep(stepId: string): Promise<StepState> {
    const entry = this.#steps.get(stepId)
    if (!entry)
      throw new AppError('NOT_FOUND', {
        what: `No step "${stepId}" in this ${this.kind} flow.`,
        cause: `Its steps are: ${this.stepIds().join(', ')}.`,
        fix: 'Pick one of them.',
      })
    const { def, state } = entry
    const missing = (def.requires ?? []).filter((r) => !this.#outputs.has(r))
    state.exchangeIds = []
    state.checks = []
    state.error = undefined
    state.progress = undefined
    state.summary = undefined
    if (missing.length) {
      state.status = 'failed'
      const titles = missing.map((m) => this.#steps.get(m)?.def.title ?? m)
      state.error = {
        code: 'FLOW_STEP_NOT_READY',
        what: `"${def.title}" cannot run yet.`,
        cause: `It needs the result of: ${titles.join(', ')}.`,
        fix: `Run ${titles.join(', then ')} first.`,
        step: def.id,
      }
      this.emit({ flowId: this.id, step: snapshot(state) })
      return snapshot(state)
    }
    state.status = 'running'
    state.startedAt = this.now().toISOString()
    this.emit({ flowId: this.id, step: snapshot(state) })
    const started = performance.now()
    const pacer = new ProgressPacer(() => this.emit({ flowId: this.id, step: snapshot(state) }))
    const scope: StepScope = {
      exchange: (id) => state.exchangeIds.push(id),
      output: (id) => this.output(id),
      has: (id) => this.#outputs.has(id),
      setAwaiting: (a) => {
        this.awaiting = a
        if (a) this.emit({ flowId: this.id, step: snapshot(state) })
      },
      flowId: this.id,
      progress: (p) => {
        state.progress = { ...p }
        pacer.report()
      },
    }
    try {
      const outcome = await def.run(this.ctx, scope)
      state.checks = outcome.checks ?? []
      state.summary = outcome.summary
      state.output = outcome.output
      const failed = state.checks.filter((c) => !c.pass)
      if (failed.length) {
        state.status = 'failed'
        this.#outputs.delete(stepId)
        state.error = toStepError(checksFailed(def.title, failed, outcome), def, state.exchangeIds)
      } else {
        state.status = outcome.skipped ? 'skipped' : 'done'
        this.#outputs.set(stepId, outcome.output)
      }
    } catch (err) {
      state.status = 'failed'
      this.#outputs.delete(stepId)
      state.error = toStepError(err, def, state.exchangeIds)
    }
    pacer.cancel()
    state.ms = Math.round(performance.now() - started)
    state.progress = undefined
    this.emit({ flowId: this.id, step: snapshot(state) })
    return snapshot(state)
  }

  /**
   * Replaces a done step's output after an action on it (a refreshed token set on the code exchange): later
   * steps read the new output; the exchange is added to the step's, and subscribers get the step's state.
   */
  updateOutput(stepId: string, output: unknown, note: { exchangeId?: string; summary?: string } = {}): void {
    const entry = this.#steps.get(stepId)
    if (!entry || !this.#outputs.has(stepId))
      throw new AppError('FLOW_STEP_NOT_READY', {
        what: `The step "${entry?.def.title ?? stepId}" has not run.`,
        cause: 'There is nothing to update yet.',
        fix: `Run "${entry?.def.title ?? stepId}" first.`,
      })
    this.#outputs.set(stepId, output)
    entry.state.output = output
    if (note.exchangeId) entry.state.exchangeIds.push(note.exchangeId)
    if (note.summary) entry.state.summary = note.summary
    this.emit({ flowId: this.id, step: snapshot(entry.state) })
  }

  /** Runs the steps in order from the first not done (or from `from`), stopping at the first failure or after `until`. */
  async runAll(opts: { from?: string; until?: string } = {}): Promise<FlowState> {
    const ids = this.stepIds()
    let start = opts.from
      ? ids.indexOf(opts.from)
      : ids.findIndex((id) => !['done', 'skipped'].includes(this.#steps.get(id)!.state.status))
    if (start < 0) start = ids.length
    for (const id of ids.slice(start)) {
      const result = await this.runStep(id)
      if (result.status === 'failed') break
      if (id === opts.until) break
    }
    return this.state()
  }
}
