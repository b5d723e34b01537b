/** The console's time source: inject it, never call Date.now() in domain code, so tests control time. */
export interface Clock {
  now(): Date
  /** Seconds since the epoch (integer), as JWT claims want them. */
  epochSeconds(): number
}

/** Wall-clock time, optionally shifted by `offsetMs` (to reproduce a skewed client clock). */
export function systemClock(offsetMs = 0): Clock {
  return {
    now: () => new Date(Date.now() + offsetMs),
    epochSeconds: () => Math.floor((Date.now() + offsetMs) / 1000),
  }
}

/** A clock frozen at `at` that tests move with `advance`. */
export function fixedClock(
  at: Date | string | number,
): Clock & { advance(ms: number): void; set(at: Date | string | number): void } {
  let t = new Date(at).getTime()
  return {
    now: () => new Date(t),
    epochSeconds: () => Math.floor(t / 1000),
    advance: (ms: number) => {
      t += ms
    },
    set: (next) => {
      t = new Date(next).getTime()
    },
  }
}
