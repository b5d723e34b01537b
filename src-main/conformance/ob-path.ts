// The short form of a value a violation shows (the pointer and path helpers: plumbing/json-pointer.ts).

/** Longest value shown in a violation. */
export const VALUE_MAX = 80

/** A value as a violation shows it: JSON, cut at 80 characters (an object or array by its kind and size). */
export function describeValue(value: unknown): string {
  if (Array.isArray(value)) return `array of ${value.length}`
  if (value !== null && typeof value === 'object') return `object with ${Object.keys(value).length} members`
  const text = JSON.stringify(value) ?? String(value)
  return text.length > VALUE_MAX ? `${text.slice(0, VALUE_MAX - 1)}…` : text
}
