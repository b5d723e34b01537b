/**
 * JSON pointers (RFC 6901, as ajv reports where a value failed) read two ways: as the OB JSON path a person
 * reads (`/Data/Account/0/OpeningDate` is `Data.Account[0].OpeningDate`), and as the value they point at, with
 * the short form a message shows of that value. The console's flows and lens and the local sandbox's request
 * checks all name fields and values this way.
 */
import type { DefinedError, ErrorObject } from 'ajv'

/** A pointer's segments, unescaped (`~1` is `/`, `~0` is `~`). */
function segments(pointer: string): string[] {
  return pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
}

/** The OB JSON path of a pointer (of an ajv error, `errorPointer`); `''` for the root. */
export function toObPath(pointer: string): string {
  let path = ''
  for (const s of segments(pointer)) path += /^\d+$/.test(s) ? `[${s}]` : path ? `.${s}` : s
  return path
}

/**
 * The member an ajv error names inside the value at its `instancePath`: the one missing (`required`) or the one
 * the schema does not have (`additionalProperties`); undefined for every other keyword.
 */
export function errorMember(e: ErrorObject): string | undefined {
  const known = e as DefinedError
  if (known.keyword === 'required') return known.params.missingProperty
  if (known.keyword === 'additionalProperties') return known.params.additionalProperty
  return undefined
}

/** The pointer of what an ajv error is about: the member it names (escaped as RFC 6901 says), else its instance. */
export function errorPointer(e: ErrorObject): string {
  const member = errorMember(e)
  return member === undefined ? e.instancePath : `${e.instancePath}/${member.replace(/~/g, '~0').replace(/\//g, '~1')}`
}

/** The value at a pointer of `body`, or undefined where a step of it is missing or not an object. */
export function valueAt(body: unknown, pointer: string): unknown {
  let node = body
  for (const s of segments(pointer)) {
    if (node === null || typeof node !== 'object') return undefined
    node = (node as Record<string, unknown>)[s]
  }
  return node
}

/** Longest value a message shows. */
export const VALUE_MAX = 80

/**
 * A value as a message shows it: JSON, cut at 80 characters; an object or array by its kind and size. The
 * lens's violations and the local sandbox's request errors (`Data.Initiation.InstructedAmount.Amount is "1,00"`)
 * show values this way; the flows' sentences put them in words (`valueInWords`, flows/common/bank-answer.ts).
 */
export function describeValue(value: unknown): string {
  if (Array.isArray(value)) return `an array of ${value.length}`
  if (value !== null && typeof value === 'object') return `an object with ${Object.keys(value).length} members`
  const text = JSON.stringify(value) ?? String(value)
  return text.length > VALUE_MAX ? `${text.slice(0, VALUE_MAX - 1)}…` : text
}
