/** How often, at most, a running step's progress is emitted. */
export const PROGRESS_INTERVAL_MS = 100

/**
 * A running step's progress reports, emitted at most once per `intervalMs`: the first at once, then the newest
 * of those made in between when the interval has passed. A transactions read reports every page it reads, and
 * every emitted report is masked, sent to every window and seen by the consent list and the flow history: paced,
 * a read of 17 pages in 30 ms is one event instead of 17, while a slow read still shows each page as it comes.
 * The step's end supersedes a report still waiting (`cancel`, then the final state is emitted).
 */
export class ProgressPacer {
  #last = Number.NEGATIVE_INFINITY
  #timer: ReturnType<typeof setTimeout> | undefined

  constructor(
    private readonly emit: () => void,
    private readonly intervalMs = PROGRESS_INTERVAL_MS,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** A new report: emitted now, or when the interval since the last emitted one has passed. */
  report(): void {
    if (this.#timer) return
    const wait = this.#last + this.intervalMs - this.now()
    if (wait <= 0) this.#fire()
    else this.#timer = setTimeout(() => this.#fire(), wait)
  }

  /** Drops a report still waiting (the step ended: its final state says the rest). */
  cancel(): void {
    clearTimeout(this.#timer)
    this.#timer = undefined
  }

  #fire(): void {
    this.#timer = undefined
    this.#last = this.now()
    this.emit()
  }
}
