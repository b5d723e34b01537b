import type { JSONWebKeySet } from 'jose'

/** A body parsed as JSON when its content type says JSON and it parses; undefined otherwise. */
export function parseJsonBody(text: string, contentType: string | undefined): unknown {
  if (!text || !/json/i.test(contentType ?? '')) return undefined
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

/**
 * The member at `path` of a parsed body, or undefined where any step of the path is missing or not an object:
 * for the lenient reads of an answer (what a lookup reports, a hint); what a step relies on is read through a
 * checked shape instead.
 */
export function jsonMember(json: unknown, ...path: string[]): unknown {
  let node = json
  for (const key of path) {
    if (node === null || typeof node !== 'object' || Array.isArray(node)) return undefined
    node = (node as Record<string, unknown>)[key]
  }
  return node
}

/** A parsed body as an object to read members from: the body when it is a JSON object, else an empty one. */
export function jsonObject(json: unknown): Readonly<Record<string, unknown>> {
  return json !== null && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : {}
}

/** The key set of a JWKS answer (RFC 7517 section 5): a 200 whose body has a `keys` list, or undefined. */
export function jwksOf(res: { status: number; json?: unknown }): JSONWebKeySet | undefined {
  const keys = jsonObject(res.json).keys
  return res.status === 200 && Array.isArray(keys) ? (res.json as JSONWebKeySet) : undefined
}
