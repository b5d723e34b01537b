/**
 * The engine's side of the bank-conformance lens: every exchange recorded is checked after the fact (never
 * before its answer reaches the flow or the inspector), its verdict kept beside the exchange log under the
 * same capacity, and the exchange's list row told its count of violations when the check ends. Checks start
 * when `checkWhen` says (the engine's quiet moments, `http/quiet-time.ts`: a flow's requests never wait for
 * them, and no check waits more than a second), at once when a verdict is awaited. At most `MAX_IN_FLIGHT` run
 * at once, each reading its body only when it starts: a burst of thousands of exchanges queues ids, not copies
 * of their bodies.
 */
import type { ConformanceDto } from '../contract/exchange.ts'
import type { AnswerToCheck } from '../conformance/check-answer.ts'
import type { ConformanceLens } from '../conformance/conformance-lens.ts'
import { NEXT_TURN, type QuietGate } from '../http/quiet-time.ts'

/** What the lens needs of one exchange, found when it is checked (its body read from the log then). */
export type AnswerSource = () => AnswerToCheck | { note: string }

/** Checks running at once (a worker thread's queue holds at most this many bodies). */
export const MAX_IN_FLIGHT = 4

const PENDING: ConformanceDto = {
  checked: false,
  violations: [],
  note: "Being checked against the OB v4.0 schemas and the bank's rules.",
}

interface Job {
  id: string
  source: AnswerSource
  generation: number
  /** When it was queued (`checkWhen.now()`): it waits at most the gate's longest delay from then. */
  askedAt: number
  done: (result: ConformanceDto | undefined) => void
}

export class ConformanceTracker {
  readonly #results = new Map<string, ConformanceDto>()
  readonly #pending = new Map<string, Promise<ConformanceDto | undefined>>()
  readonly #lens: ConformanceLens
  readonly #capacity: number
  readonly #onChecked: (id: string, result: ConformanceDto) => void
  #queue: Job[] = []
  #head = 0
  #running = 0
  #generation = 0
  readonly #checkWhen: QuietGate
  /** A verdict is awaited: every check queued runs without waiting for quiet until the queue is empty. */
  #hurried = false

  constructor(
    lens: ConformanceLens,
    capacity: number,
    onChecked: (id: string, result: ConformanceDto) => void,
    checkWhen: QuietGate = NEXT_TURN,
  ) {
    this.#lens = lens
    this.#capacity = capacity
    this.#onChecked = onChecked
    this.#checkWhen = checkWhen
  }

  /** Checks an exchange in the engine's next pause (or in the lens's worker); `source` is read then, not now. */
  enqueue(id: string, source: AnswerSource): void {
    const generation = this.#generation
    const askedAt = this.#checkWhen.now()
    const run = new Promise<ConformanceDto | undefined>((done) =>
      this.#queue.push({ id, source, generation, askedAt, done }),
    ).then((result) => {
      if (this.#pending.get(id) === run) this.#pending.delete(id)
      if (!result || generation !== this.#generation) return undefined
      this.#results.set(id, result)
      if (this.#results.size > this.#capacity) this.#results.delete(this.#results.keys().next().value!)
      this.#onChecked(id, result)
      return result
    })
    this.#pending.set(id, run)
    this.#pump()
  }

  #pump(): void {
    while (this.#running < MAX_IN_FLIGHT && this.#head < this.#queue.length) {
      const job = this.#queue[this.#head++]!
      if (this.#head > 1024 && this.#head * 2 > this.#queue.length) {
        this.#queue = this.#queue.slice(this.#head)
        this.#head = 0
      }
      this.#running++
      void this.#run(job).finally(() => {
        this.#running--
        this.#pump()
        if (!this.#running) this.#hurried = false
      })
    }
  }

  async #run(job: Job): Promise<void> {
    if (this.#hurried) await new Promise((resolve) => setImmediate(resolve))
    else await this.#checkWhen.wait(job.askedAt)
    // Cleared since: its body is not read.
    if (job.generation !== this.#generation) return job.done(undefined)
    const answer = job.source()
    job.done('note' in answer ? { checked: false, violations: [], note: answer.note } : await this.#lens.check(answer))
  }

  /** The verdict so far: the result, "being checked", or undefined for an exchange never given to the lens. */
  get(id: string): ConformanceDto | undefined {
    return this.#results.get(id) ?? (this.#pending.has(id) ? { ...PENDING, violations: [] } : undefined)
  }

  /** Someone looks at an exchange whose check waits for a pause: it runs now, with those queued before it. */
  lookedAt(id: string): void {
    if (this.#pending.has(id)) this.#hurry()
  }

  /** The verdict once the check ends (at once when it has). */
  async whenChecked(id: string): Promise<ConformanceDto | undefined> {
    const pending = this.#pending.get(id)
    this.lookedAt(id)
    return this.#results.get(id) ?? (await pending) ?? this.#results.get(id)
  }

  /** Resolves when every check started so far has ended. */
  async settled(): Promise<void> {
    if (this.#pending.size) this.#hurry()
    while (this.#pending.size) await Promise.all([...this.#pending.values()])
  }

  /** The checks queued run now, one after another, until none is left. */
  #hurry(): void {
    this.#hurried = true
    this.#checkWhen.hurry()
  }

  /** Forgets every verdict; checks queued or running are dropped (their bodies not read, or their results not kept). */
  clear(): void {
    this.#generation++
    this.#results.clear()
    this.#pending.clear()
  }

  /** Stops the lens; checks queued or waiting for a pause are dropped (they end at once, reading nothing). */
  close(): Promise<void> {
    this.clear()
    this.#hurry()
    return this.#lens.close()
  }
}
