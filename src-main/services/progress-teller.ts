import type { FlowProgress } from '../contract/flows.ts'
import { maskStep } from './flow-masking.ts'

/**
 * A flow's progress on its way out: each step's progress as the step machine made it, masked and handed to
 * `tell` on a later turn of the event loop, in order, so a step's code goes on (often to its next request)
 * before the masking and the listeners' work. `tellNow()` hands over whatever is waiting (a run answers only
 * after every progress of it was told). A listener that throws is logged, and the rest are still told: it
 * never fails the step.
 */
export class ProgressTeller {
  #untold: FlowProgress[] = []

  constructor(
    private readonly tell: (progress: FlowProgress) => void,
    private readonly log?: (line: string) => void,
  ) {}

  /** The step machine's `emit`. */
  readonly made = (progress: FlowProgress): void => {
    if (this.#untold.push(progress) === 1) setImmediate(() => this.tellNow())
  }

  tellNow(): void {
    const untold = this.#untold
    this.#untold = []
    for (const progress of untold) {
      try {
        this.tell({ flowId: progress.flowId, step: maskStep(progress.step) })
      } catch (err) {
        this.log?.(
          `OB Console: the progress of step ${progress.step.id} (flow ${progress.flowId}) reached a listener that failed (${(err as Error).message}).`,
        )
      }
    }
  }
}
