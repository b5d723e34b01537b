import { NEXT_TURN, type QuietGate } from '../../http/quiet-time.ts'

/**
 * A store's writes behind its callers. `start()` after a change; the writes run in the gate's pauses (the
 * engine's, `http/quiet-time.ts`: no request waits for the disk, and none waits more than a second), a round at a
 * time (`writeRound`: what is pending then, each item's newest state once) while `pending()` says there is more.
 * `flushed()` writes whatever is pending at once, a round begun meanwhile included.
 */
export class WriteBehind {
  #writing: Promise<void> | undefined
  /** Callers waiting in `flushed()`: the rounds do not wait for a pause meanwhile. */
  #flushing = 0

  constructor(
    private readonly pending: () => boolean,
    private readonly writeRound: () => Promise<void>,
    private readonly gate: QuietGate = NEXT_TURN,
  ) {}

  /** A round is waiting for its pause or writing. */
  get busy(): boolean {
    return this.#writing !== undefined
  }

  start(): void {
    this.#writing ??= this.#run(this.gate.now())
  }

  async flushed(): Promise<void> {
    this.#flushing++
    try {
      if (this.#writing) this.gate.hurry()
      while (this.#writing) await this.#writing
    } finally {
      this.#flushing--
    }
  }

  async #run(askedAt: number): Promise<void> {
    try {
      while (this.pending()) {
        if (!this.#flushing) await this.gate.wait(askedAt)
        askedAt = this.gate.now()
        await this.writeRound()
      }
    } finally {
      this.#writing = undefined
    }
  }
}
