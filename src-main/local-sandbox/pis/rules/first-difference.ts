/**
 * The JSON path of the first place two JSON values differ, or undefined when they are deep-equal.
 * Object key order does not matter; array order does. A field present on one side only differs at
 * its own path (`Risk.PaymentContextCode`). Keys are visited in the first value's order, then the
 * second's extra keys, so the answer is stable for a given stored consent.
 *
 * @example
 *   firstDifference({ A: { B: '1' } }, { A: { B: '2' } }, 'Data') // 'Data.A.B'
 */
export function firstDifference(a: unknown, b: unknown, path: string): string | undefined {
  if (a === b) return undefined
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b)) return path
    const n = Math.max(a.length, b.length)
    for (let i = 0; i < n; i++) {
      if (i >= a.length || i >= b.length) return `${path}[${i}]`
      const d = firstDifference(a[i], b[i], `${path}[${i}]`)
      if (d) return d
    }
    return undefined
  }
  if (isObject(a) && isObject(b)) {
    const keys = [...Object.keys(a), ...Object.keys(b).filter((k) => !(k in a))]
    for (const k of keys) {
      const child = path ? `${path}.${k}` : k
      if (!(k in a) || !(k in b)) return child
      const d = firstDifference(a[k], b[k], child)
      if (d) return d
    }
    return undefined
  }
  return path
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}
