/**
 * Statistics for the benchmarks: medians over repeated runs with their spread. Every figure the suite
 * reports is a median, shown with min/max (and the interquartile range where there are enough samples).
 */

/** The q-quantile (0..1) of an ascending array, linearly interpolated between the closest ranks. */
export function quantileSorted(sorted: ArrayLike<number>, q: number): number {
  const n = sorted.length
  if (n === 0) return NaN
  if (n === 1) return sorted[0]!
  const pos = (n - 1) * Math.min(1, Math.max(0, q))
  const lo = Math.floor(pos)
  const hi = Math.ceil(pos)
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo)
}

/** The q-quantile (0..1) of unsorted samples. */
export function quantile(samples: number[], q: number): number {
  return quantileSorted(
    [...samples].sort((a, b) => a - b),
    q,
  )
}

/** The median of unsorted samples. */
export function median(samples: number[]): number {
  return quantile(samples, 0.5)
}

/** A sample set summarised: median, extremes and quartiles. */
export interface Spread {
  n: number
  median: number
  min: number
  max: number
  q1: number
  q3: number
  iqr: number
}

/** Median, min, max and quartiles of `samples` (NaN everywhere for an empty set). */
export function spread(samples: number[]): Spread {
  const s = [...samples].sort((a, b) => a - b)
  const q1 = quantileSorted(s, 0.25)
  const q3 = quantileSorted(s, 0.75)
  return { n: s.length, median: quantileSorted(s, 0.5), min: s[0] ?? NaN, max: s.at(-1) ?? NaN, q1, q3, iqr: q3 - q1 }
}

/** `1.23 (1.10-1.40)`: the median with its min-max range, to `digits` decimals. */
export function formatSpread(s: Spread, digits = 2, unit = ''): string {
  const f = (x: number) => x.toFixed(digits)
  return s.n > 1 ? `${f(s.median)}${unit} (${f(s.min)}-${f(s.max)})` : `${f(s.median)}${unit}`
}

/**
 * Latency samples in milliseconds kept in a growable Float64Array: a load run records hundreds of
 * thousands of them without allocating an object per request.
 */
export class LatencyRecorder {
  #data = new Float64Array(1 << 16)
  #n = 0

  add(ms: number): void {
    if (this.#n === this.#data.length) {
      const bigger = new Float64Array(this.#data.length * 2)
      bigger.set(this.#data)
      this.#data = bigger
    }
    this.#data[this.#n++] = ms
  }

  get count(): number {
    return this.#n
  }

  /** Quantiles (0..1) of the recorded latencies. */
  quantiles(qs: number[]): number[] {
    const sorted = this.#data.slice(0, this.#n).sort()
    return qs.map((q) => quantileSorted(sorted, q))
  }
}
