/**
 * The web host's answer to a call whose result holds large strings (a response body of megabytes, as the
 * inspector opens it): the strings travel beside the JSON as their UTF-8 bytes, not inside it, so the main side
 * neither escapes them into JSON nor the page parses them back out of it. The answer is the head (the list of
 * where each string goes and its length in bytes, then the result's JSON with each of them left as `""`), then
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

/** True for a framed answer's content type (`content-type` header as received; null when absent). */
export const isFramed = (contentType: string | null): boolean => (contentType ?? '').startsWith(FRAMED_ANSWER.type)

/** Where a value sits in a JSON document: its keys and indexes from the top. */
export type JsonPath = Array<string | number>

interface FramedHead {
  value: unknown
  strings: Array<{ path: JsonPath; bytes: number }>
}

/**
 * Gives a property's string as UTF-8 bytes without reading the property (a view whose text is decoded from
 * kept bytes only when read), or undefined to read it as usual.
 */
export type Utf8Of = (holder: object, key: string) => Uint8Array | undefined

export interface FramingOptions {
  /** Strings of at least this many code units are framed (default `FRAMED_ANSWER.largeString`). */
  min?: number
  utf8Of?: Utf8Of
}

/**
 * Walks `value` as JSON.stringify would (after `toJSON`), handing `framed` each string of `min` code units or
 * more and each property `utf8Of` gives `min` bytes or more of. With `copy`, returns the value with those left
 * `""`; without, only looks, and stops at the first `framed` returns true for (`stopped`).
 */
function walk(
  value: unknown,
  { min, utf8Of, copy }: { min: number; utf8Of: Utf8Of | undefined; copy: boolean },
  framed: (path: JsonPath, bytes: () => Uint8Array) => boolean | void,
): { value: unknown; stopped: boolean } {
  const encoder = new TextEncoder()
  // The path to the value visited, one array pushed and popped (copied only for a string framed): answers of
  // tens of thousands of rows are walked before every one is written.
  const path: JsonPath = []
  let stopped = false
  const visit = (v: unknown, key: string): unknown => {
    if (v !== null && typeof v === 'object' && typeof (v as { toJSON?: unknown }).toJSON === 'function')
      v = (v as { toJSON: (key: string) => unknown }).toJSON(key)
    if (typeof v === 'string') {
      if (v.length < min) return v
      stopped = framed([...path], () => encoder.encode(v)) === true
      return ''
    }
    if (v === null || typeof v !== 'object') return v
    if (Array.isArray(v)) {
      const items: unknown[] = []
      for (let i = 0; i < v.length && !stopped; i++) {
        path.push(i)
        const item = visit(v[i], String(i))
        path.pop()
        if (copy) items.push(item)
      }
      return copy ? items : undefined
    }
    const fields: Record<string, unknown> = {}
    for (const k of Object.keys(v)) {
      if (stopped) break
      path.push(k)
      // Given as bytes and large: framed without reading the property; small: read (and copied) as usual.
      const given = utf8Of?.(v, k)
      const bytes = given && given.byteLength >= min ? given : undefined
      if (bytes) stopped = framed([...path], () => bytes) === true
      const field = bytes ? '' : visit((v as Record<string, unknown>)[k], k)
      path.pop()
      if (copy) fields[k] = field
    }
    return copy ? fields : undefined
  }
  return { value: visit(value, ''), stopped }
}

/**
 * The framed answer for `value` (head bytes, then each large string's bytes), or undefined when it holds no
 * large string and plain JSON serves.
 */
export function encodeFramed(value: unknown, options: FramingOptions = {}): Uint8Array[] | undefined {
  // A string alone is no call's answer (they are `{ ok, … }`): only strings inside a value are framed.
  if (value === null || typeof value !== 'object') return undefined
  const how = { min: options.min ?? FRAMED_ANSWER.largeString, utf8Of: options.utf8Of }
  // Most answers hold none: a first walk that only looks, stopped at the first found, spares them the copy.
  if (!walk(value, { ...how, copy: false }, () => true).stopped) return undefined
  const found: Array<{ path: JsonPath; bytes: Uint8Array }> = []
  const head = walk(value, { ...how, copy: true }, (path, bytes) => void found.push({ path, bytes: bytes() })).value
  const list = found.map((f) => ({ path: f.path, bytes: f.bytes.byteLength }))
  const json = `{"strings":${JSON.stringify(list)},"value":${JSON.stringify(head)}}`
  return [new TextEncoder().encode(json), ...found.map((f) => f.bytes)]
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
