/**
 * The sandbox clock: wall time plus an offset that tests and users move forward
 * (`POST {directory_url}/admin/clock`, or `ob-console sandbox --clock-offset`). Booking of pending
 * transactions, the PSU-absent 24-hour window, consent expiry and payment status all read this clock,
 * never `Date.now()` directly. Time only moves forward: an offset can grow, never shrink.
 */
export class SandboxClock {
  #offsetMs: number

  /** @param onAdvance called with the new offset after every move (the sandbox persists it in `state/clock.json`). */
  constructor(
    offsetMs = 0,
    private readonly onAdvance?: (offsetMs: number) => void,
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

  /** Moves the clock forward by `ms` milliseconds and returns the new sandbox time. */
  advance(ms: number): Date {
    if (!Number.isFinite(ms) || ms < 0)
      throw new RangeError(
        `the sandbox clock only moves forward: advance by a non-negative number of milliseconds, got ${ms}`,
      )
    this.#offsetMs += ms
    this.onAdvance?.(this.#offsetMs)
    return this.now()
  }
}

/** ISO 8601 date-time with the `+00:00` offset, as Open Banking response bodies carry it. */
export function isoDateTime(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, '+00:00')
}
