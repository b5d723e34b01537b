// JSON pointers, OB JSON paths and the short form of a value a violation shows.

/** A JSON pointer (`/Data/Account/0/OpeningDate`) as an OB JSON path (`Data.Account[0].OpeningDate`). */
export function toObPath(pointer: string): string {
  let path = ''
  for (const raw of pointer.split('/').slice(1)) {
    const s = raw.replace(/~1/g, '/').replace(/~0/g, '~')
    path += /^\d+$/.test(s) ? `[${s}]` : path ? `.${s}` : s
  }
  return path
}

/** The value at a JSON pointer of `body`, or undefined. */
export function valueAt(body: unknown, pointer: string): unknown {
  let node = body
  for (const s of pointer.split('/').slice(1)) {
    if (node === null || typeof node !== 'object') return undefined
    node = (node as Record<string, unknown>)[s.replace(/~1/g, '/').replace(/~0/g, '~')]
  }
  return node
}

/** Longest value shown in a violation. */
export const VALUE_MAX = 80

/** A value as a violation shows it: JSON, cut at 80 characters (an object or array by its kind and size). */
export function describeValue(value: unknown): string {
  if (Array.isArray(value)) return `array of ${value.length}`
  if (value !== null && typeof value === 'object') return `object with ${Object.keys(value).length} members`
  const text = JSON.stringify(value) ?? String(value)
  return text.length > VALUE_MAX ? `${text.slice(0, VALUE_MAX - 1)}…` : text
}
