/**
 * The moments the engine's HTTP work pauses, for the work no request waits for: the lens's checks and the writes
 * of the flow history and the console state. Run at once, that work lands between one answer and the request
 * that follows it, or while the next answer's bytes arrive, and every flow waits for it; held until the engine
 * is quiet it runs while nothing else does. Quiet: no request has started or ended for `quietMs` (15 ms). No
 * work waits longer than `maxDelayMs` (1 s) from when it was asked for, so a long run (thousands of pages) has
 * its checks and writes done as it goes, a second behind. `hurry()` ends every wait now: a verdict asked for, a
 * store flushed, the console stopping.
 */

export interface QuietTimeOptions {
  /** No request started or ended for this long is quiet. Default 15 ms. */
  quietMs?: number
  /** The longest a piece of work waits, from when it was asked for. Default 1,000 ms. */
  maxDelayMs?: number
  /** A monotonic clock in ms (tests); `performance.now` by default. */
  now?: () => number
}

/** What waits for quiet: `wait(askedAt)` resolves in a quiet moment, or `maxDelayMs` after `askedAt`. */
export interface QuietGate {
  wait(askedAt?: number): Promise<void>
  /** Ends every wait now. */
  hurry(): void
  /** The gate's clock, for `askedAt`. */
  now(): number
}

interface Waiter {
  due: number
  go: () => void
}

export class QuietTime implements QuietGate {
  readonly #quietMs: number
  readonly #maxDelayMs: number
  readonly #clock: () => number
  #lastActivity = Number.NEGATIVE_INFINITY
  #waiting: Waiter[] = []
  #timer: ReturnType<typeof setTimeout> | undefined
  #timerAt = Number.POSITIVE_INFINITY

  constructor(options: QuietTimeOptions = {}) {
    this.#quietMs = options.quietMs ?? 15
    this.#maxDelayMs = options.maxDelayMs ?? 1000
    this.#clock = options.now ?? (() => performance.now())
  }

  now(): number {
    return this.#clock()
  }

  /** A request started or ended: the quiet moment is `quietMs` from now. */
  activity(): void {
    this.#lastActivity = this.#clock()
  }

  get quiet(): boolean {
    return this.#clock() - this.#lastActivity >= this.#quietMs
  }

  wait(askedAt = this.#clock()): Promise<void> {
    return new Promise((go) => {
      const due = askedAt + this.#maxDelayMs
      // Quiet already, or overdue: on the next turn, as any work handed on is.
      if (this.quiet || due <= this.#clock()) {
        setImmediate(go)
        return
      }
      this.#waiting.push({ due, go })
      this.#arm()
    })
  }

  hurry(): void {
    const waiting = this.#waiting
    this.#waiting = []
    this.#disarm()
    for (const w of waiting) w.go()
  }

  /** One timer, for the sooner of the quiet moment and the first wait due. */
  #arm(): void {
    if (!this.#waiting.length) return this.#disarm()
    let at = this.#lastActivity + this.#quietMs
    for (const w of this.#waiting) at = Math.min(at, w.due)
    if (this.#timer && this.#timerAt <= at) return
    this.#disarm()
    this.#timerAt = at
    this.#timer = setTimeout(() => this.#release(), Math.max(0, at - this.#clock()))
  }

  #disarm(): void {
    if (this.#timer) clearTimeout(this.#timer)
    this.#timer = undefined
    this.#timerAt = Number.POSITIVE_INFINITY
  }

  /** Quiet: every wait ends; otherwise those due, and the timer is set again for the rest. */
  #release(): void {
    this.#timer = undefined
    this.#timerAt = Number.POSITIVE_INFINITY
    const now = this.#clock()
    const quiet = this.quiet
    const ready = quiet ? this.#waiting : this.#waiting.filter((w) => w.due <= now)
    this.#waiting = quiet ? [] : this.#waiting.filter((w) => w.due > now)
    for (const w of ready) w.go()
    this.#arm()
  }
}

/** A gate with no quiet to wait for: every wait ends on the next turn (stores and trackers used alone, tests). */
export const NEXT_TURN: QuietGate = {
  wait: () => new Promise((go) => setImmediate(go)),
  hurry: () => undefined,
  now: () => performance.now(),
}
