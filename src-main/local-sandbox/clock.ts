import type { SandboxStore } from './store/sandbox-store.ts'

/**
 * The sandbox clock: wall time plus an offset that tests and users move forward
 * (`POST {directory_url}/admin/clock`, or `ob-console sandbox --clock-offset`). Booking of pending
 * transactions, the PSU-absent 24-hour window, consent expiry and payment status all read this clock,
 * never `Date.now()` directly. Time only moves forward: an offset can grow, never shrink.
 */
export class SandboxClock {
  #offsetMs: number

  /**
   * @param store where the offset is kept (the sandbox store): `advance` adds to the stored offset atomically
   * and takes the result, so every process on one store moves together. Without one, the offset lives here.
   */
  constructor(
    offsetMs = 0,
    private readonly store?: Pick<SandboxStore, 'advanceClock' | 'clockOffset'>,
  ) {
    if (!Number.isFinite(offsetMs) || offsetMs < 0)
      throw new RangeError(`clock offset must be a non-negative number of milliseconds, got ${offsetMs}`)
    this.#offsetMs = offsetMs
  }

  /** Milliseconds since the epoch, sandbox time. */
  nowMs(): number {
    return Date.now() + this.#offsetMs
  }

  now(): Date {
    return new Date(this.nowMs())
  }

  /** Seconds since the epoch, sandbox time (for JWT claims). */
  nowSeconds(): number {
    return Math.floor(this.nowMs() / 1000)
  }

  get offsetMs(): number {
    return this.#offsetMs
  }

  /**
   * Moves the clock forward by `ms` milliseconds (in the store first, when there is one) and resolves to the
   * new sandbox time. A negative or non-finite `ms` throws at once.
   */
  advance(ms: number): Promise<Date> {
    if (!Number.isFinite(ms) || ms < 0)
      throw new RangeError(
        `the sandbox clock only moves forward: advance by a non-negative number of milliseconds, got ${ms}`,
      )
    if (!this.store) {
      this.#offsetMs += ms
      return Promise.resolve(this.now())
    }
    return this.store.advanceClock(ms).then((offsetMs) => {
      this.#take(offsetMs)
      return this.now()
    })
  }

  /** Takes the store's offset (another process sharing the store may have moved it); resolves to the offset. */
  async refresh(): Promise<number> {
    if (this.store) this.#take(await this.store.clockOffset())
    return this.#offsetMs
  }

  /** The offset only grows: a stale answer never moves the clock back. */
  #take(offsetMs: number): void {
    if (offsetMs > this.#offsetMs) this.#offsetMs = offsetMs
  }
}

/** ISO 8601 date-time with the `+00:00` offset, as Open Banking response bodies carry it. */
export function isoDateTime(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, '+00:00')
}
