import type { FlowProgress } from '../contract/flows.ts'
import { maskStep } from './flow-masking.ts'

export interface ProgressTellerOptions {
  /**
   * Main-side followers (the consent list, the exchange a step failed on): each progress as the step machine
   * made it, unmasked. Nothing handed to them leaves the main side as it is.
   */
  follow?: (progress: FlowProgress) => void
  /** Whether anyone outside listens (a window, a subscriber): when not, nothing is masked for them. Default: yes. */
  listening?: () => boolean
  log?: (line: string) => void
}

/**
 * A flow's progress on its way out: each step's progress as the step machine made it, handed on a later turn
 * of the event loop, in order, so a step's code goes on (often to its next request) before the listeners' work:
 * to the main side's followers as made, then masked to `tell` (only while someone outside listens: a run
 * with no window open masks nothing for nobody). `tellNow()` hands over whatever is waiting (a run answers only
 * after every progress of it was told). A listener that throws is logged, and the rest are still told: it
 * never fails the step.
 */
export class ProgressTeller {
  #untold: FlowProgress[] = []

  constructor(
    private readonly tell: (progress: FlowProgress) => void,
    private readonly options: ProgressTellerOptions = {},
  ) {}

  /** The step machine's `emit`. */
  readonly made = (progress: FlowProgress): void => {
    if (this.#untold.push(progress) === 1) setImmediate(() => this.tellNow())
  }

  tellNow(): void {
    const untold = this.#untold
    this.#untold = []
    const { follow, listening } = this.options
    for (const progress of untold) {
      if (follow) this.#guarded(progress, () => follow(progress))
      if (listening?.() !== false)
        this.#guarded(progress, () => this.tell({ flowId: progress.flowId, step: maskStep(progress.step) }))
    }
  }

  #guarded(progress: FlowProgress, told: () => void): void {
    try {
      told()
    } catch (err) {
      this.options.log?.(
        `OB Console: the progress of step ${progress.step.id} (flow ${progress.flowId}) reached a listener that failed (${(err as Error).message}).`,
      )
    }
  }
}
