/**
 * Header lookup in the exchange log's form (`[name, value]` pairs, names as sent): HTTP header names are
 * case-insensitive (RFC 9110 section 5.1), so every lookup compares them lowercased. The one place that does.
 */

/** A header list as the exchange log and the HTTP engine keep it. */
export type HeaderPairs = ReadonlyArray<readonly [string, string]>

/** The first value of header `name` (any case), or undefined. */
export function headerValue(headers: HeaderPairs | undefined, name: string): string | undefined {
  const lower = name.toLowerCase()
  return headers?.find(([k]) => k.toLowerCase() === lower)?.[1]
}

/** Every value of header `name` (any case), in order. */
export function headerValues(headers: HeaderPairs | undefined, name: string): string[] {
  const lower = name.toLowerCase()
  return (headers ?? []).filter(([k]) => k.toLowerCase() === lower).map(([, v]) => v)
}
