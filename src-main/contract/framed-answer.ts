/**
 * The web host's answer to a call whose result holds large strings (a response body of megabytes, as the
 * inspector opens it): the strings travel beside the JSON as their UTF-8 bytes, not inside it, so the main side
 * neither escapes them into JSON nor the page parses them back out of it. The answer is the head (the result's
 * JSON with each large string left as `""`, then the list of where each goes and its length in bytes), then
 * each string's bytes in that order; a header gives the head's length. Answers without a large string stay plain
 * JSON. Pure code with the platform's TextEncoder and TextDecoder: the renderer imports this file.
 */

export const FRAMED_ANSWER = {
  /** Content type of a framed answer (a plain one is `application/json`). */
  type: 'application/x-ob-console-framed',
  /** Header carrying the head's length in bytes. */
  headBytesHeader: 'x-ob-console-head-bytes',
  /** Strings of at least this many UTF-16 code units travel beside the JSON. */
  largeString: 64 * 1024,
} as const

/** Where a value sits in a JSON document: its keys and indexes from the top. */
export type JsonPath = Array<string | number>

interface FramedHead {
  value: unknown
  strings: Array<{ path: JsonPath; bytes: number }>
}

/** The large strings of `value` as JSON.stringify would write them (after `toJSON`), in document order. */
function largeStrings(value: unknown, min: number): Array<{ path: JsonPath; text: string }> {
  const found: Array<{ path: JsonPath; text: string }> = []
  const visit = (v: unknown, key: string, path: JsonPath): void => {
    if (v !== null && typeof v === 'object' && typeof (v as { toJSON?: unknown }).toJSON === 'function')
      v = (v as { toJSON: (key: string) => unknown }).toJSON(key)
    if (typeof v === 'string') {
      if (v.length >= min) found.push({ path, text: v })
      return
    }
    if (v === null || typeof v !== 'object') return
    if (Array.isArray(v)) v.forEach((item, i) => visit(item, String(i), [...path, i]))
    else for (const k of Object.keys(v)) visit((v as Record<string, unknown>)[k], k, [...path, k])
  }
  visit(value, '', [])
  return found
}

/**
 * The framed answer for `value` (head bytes, then each large string's bytes), or undefined when it holds no
 * string of `min` code units or more and plain JSON serves.
 */
export function encodeFramed(value: unknown, min: number = FRAMED_ANSWER.largeString): Uint8Array[] | undefined {
  // A string alone is no call's answer (they are `{ ok, … }`): only strings inside a value are framed.
  const strings = typeof value === 'object' ? largeStrings(value, min) : []
  if (!strings.length) return undefined
  const encoder = new TextEncoder()
  const bytes = strings.map((s) => encoder.encode(s.text))
  const list: FramedHead['strings'] = strings.map((s, i) => ({ path: s.path, bytes: bytes[i]!.byteLength }))
  // The same test as the walk's, so exactly the strings listed are left out.
  const valueJson = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'string' && v.length >= min ? '' : v))
  return [encoder.encode(`{"strings":${JSON.stringify(list)},"value":${valueJson}}`), ...bytes]
}

/** A framed answer that cannot be read back: what is wrong with it. */
export class FramedAnswerError extends Error {}

/** Sets `text` at `path` in `root`, where the head left `""` in an own property: anything else is refused. */
function put(root: unknown, path: JsonPath, text: string): void {
  if (!path.length) throw new FramedAnswerError('a string is placed at the top of the answer')
  let holder = root
  for (const [i, key] of path.entries()) {
    if (holder === null || typeof holder !== 'object' || !Object.hasOwn(holder, key))
      throw new FramedAnswerError(`nothing at ${JSON.stringify(path.slice(0, i + 1))}`)
    if (i === path.length - 1) {
      if ((holder as Record<string | number, unknown>)[key] !== '')
        throw new FramedAnswerError(`${JSON.stringify(path)} is not a string left empty for the frame`)
      ;(holder as Record<string | number, unknown>)[key] = text
      return
    }
    holder = (holder as Record<string | number, unknown>)[key]
  }
}

function isHead(x: unknown): x is FramedHead {
  const h = x as FramedHead | null
  return (
    typeof h === 'object' &&
    h !== null &&
    'value' in h &&
    Array.isArray(h.strings) &&
    h.strings.every(
      (s) =>
        Array.isArray(s?.path) &&
        s.path.every((k) => typeof k === 'string' || Number.isInteger(k)) &&
        Number.isInteger(s.bytes) &&
        s.bytes >= 0,
    )
  )
}

/** Reads a framed answer back into the value it was made from; throws FramedAnswerError on one that is not. */
export function decodeFramed(bytes: Uint8Array, headBytes: number): unknown {
  if (!Number.isInteger(headBytes) || headBytes < 0 || headBytes > bytes.byteLength)
    throw new FramedAnswerError(`the head's length (${headBytes}) does not fit the ${bytes.byteLength} bytes received`)
  const decoder = new TextDecoder()
  let head: unknown
  try {
    head = JSON.parse(decoder.decode(bytes.subarray(0, headBytes)))
  } catch (err) {
    throw new FramedAnswerError(`the head is not JSON (${(err as Error).message})`)
  }
  if (!isHead(head)) throw new FramedAnswerError('the head is not {"value", "strings": [{"path", "bytes"}]}')
  const total = head.strings.reduce((n, s) => n + s.bytes, headBytes)
  if (total !== bytes.byteLength)
    throw new FramedAnswerError(`the head lists ${total} bytes in all, the answer has ${bytes.byteLength}`)
  let at = headBytes
  for (const s of head.strings) {
    put(head.value, s.path, decoder.decode(bytes.subarray(at, at + s.bytes)))
    at += s.bytes
  }
  return head.value
}
