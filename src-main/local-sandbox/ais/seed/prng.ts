/**
 * A small seeded pseudo-random generator (sfc32 seeded through cyrb128): the same seed always gives
 * the same sequence, on every platform, so the sandbox's history is identical on every start.
 */

/** 128 bits of hash of `text` as four 32-bit words (cyrb128). */
export function hash128(text: string): [number, number, number, number] {
  let h1 = 1779033703
  let h2 = 3144134277
  let h3 = 1013904242
  let h4 = 2773480762
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i)
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067)
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233)
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213)
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179)
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067)
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233)
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213)
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179)
  h1 ^= h2 ^ h3 ^ h4
  h2 ^= h1
  h3 ^= h1
  h4 ^= h1
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0]
}

/** A 32-bit avalanche mix (the murmur3 finaliser). */
function mix32(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b)
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35)
  return (x ^ (x >>> 16)) >>> 0
}

/**
 * A fast stable identifier for item `n` of a sequence keyed by `key` (from `hash128` of the sequence's
 * name): 14 upper-case base-36 characters, distinct for distinct `n` and `salt` in practice.
 */
export function sequenceId(key: readonly [number, number, number, number], n: number, salt: number): string {
  const a = mix32(key[0] ^ Math.imul(n + 1, 0x9e3779b1) ^ salt)
  const b = mix32(key[1] ^ Math.imul(a + n, 0x85ebca77) ^ Math.imul(salt + 1, 0x27d4eb2f))
  const c = mix32(key[2] ^ b ^ n)
  return (
    (a.toString(36).padStart(7, '0') + b.toString(36).padStart(7, '0')).toUpperCase().slice(0, 12) +
    (c % 1296).toString(36).toUpperCase().padStart(2, '0')
  )
}

export class Prng {
  #a: number
  #b: number
  #c: number
  #d: number

  constructor(seed: string) {
    ;[this.#a, this.#b, this.#c, this.#d] = hash128(seed)
    for (let i = 0; i < 12; i++) this.next()
  }

  /** A float in [0, 1). */
  next(): number {
    const a = this.#a
    const b = this.#b
    const c = this.#c
    const d = this.#d
    const t = (((a + b) | 0) + d) | 0
    this.#d = (d + 1) | 0
    this.#a = b ^ (b >>> 9)
    this.#b = (c + (c << 3)) | 0
    const r = (c << 21) | (c >>> 11)
    this.#c = (r + t) | 0
    return (t >>> 0) / 4294967296
  }

  /** An integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1))
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!
  }

  /** An item chosen with probability proportional to `weight(item)`. */
  weighted<T>(items: readonly T[], weight: (item: T) => number): T {
    let total = 0
    for (const item of items) total += weight(item)
    let x = this.next() * total
    for (const item of items) {
      x -= weight(item)
      if (x < 0) return item
    }
    return items[items.length - 1]!
  }

  /** A Poisson-distributed count with mean `lambda` (Knuth; fine for the small means used here). */
  poisson(lambda: number): number {
    if (lambda <= 0) return 0
    const limit = Math.exp(-lambda)
    let k = 0
    let p = 1
    do {
      k++
      p *= this.next()
    } while (p > limit)
    return k - 1
  }

  /** An amount in pence between `min` and `max` pounds, skewed towards the lower end like real spending. */
  pence(min: number, max: number): number {
    const lo = Math.round(min * 100)
    const hi = Math.round(max * 100)
    if (hi <= lo) return lo
    const u = this.next()
    return lo + Math.round((hi - lo) * u * u)
  }

  /** A string of `length` decimal digits. */
  digits(length: number): string {
    let out = ''
    for (let i = 0; i < length; i++) out += Math.floor(this.next() * 10)
    return out
  }
}
