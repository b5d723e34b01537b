import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv'
import { errorMember, errorPointer, toObPath, valueAt } from '../../plumbing/json-pointer.ts'

/** The sandbox's three HTTPS origins, as fault rules name them. */
export type SandboxOrigin = 'base' | 'auth' | 'directory'

export type PaginationMode = 'loop' | 'off-host' | 'http' | 'missing-next' | 'wrong-total'

export type Fault =
  | { kind: 'latency'; ms: number }
  | { kind: 'status'; status: number; headers?: Record<string, string>; body?: unknown; contentType?: string }
  | { kind: 'html-error'; status?: number }
  | { kind: 'reset' }
  | { kind: 'lost-response' }
  | { kind: 'truncate'; bytes?: number }
  | { kind: 'oversize'; bytes?: number; chunked?: boolean }
  | { kind: 'mutate'; set?: Record<string, unknown>; remove?: string[] }
  | { kind: 'pagination'; mode: PaginationMode }
  | { kind: 'tls-handshake' }

export type FaultKind = Fault['kind']

/** A rule as written by its author: everything but `fault` is optional. */
export interface FaultRuleInput {
  id?: string
  origin?: SandboxOrigin | 'any'
  method?: string
  path?: string
  skip?: number
  times?: number
  fault: Fault
}

/** A rule with its defaults filled in. `times` undefined: every matching request after `skip`. */
export interface FaultRule {
  id: string
  origin: SandboxOrigin | 'any'
  method?: string
  path: string
  skip: number
  times?: number
  fault: Fault
}

/** A bad rule: `field` names it the way its author wrote it (`rules[2].fault.ms`). */
export class FaultRuleError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message)
  }
}

export const FAULT_KINDS: FaultKind[] = [
  'latency',
  'status',
  'html-error',
  'reset',
  'lost-response',
  'truncate',
  'oversize',
  'mutate',
  'pagination',
  'tls-handshake',
]
export const PAGINATION_MODES: PaginationMode[] = ['loop', 'off-host', 'http', 'missing-next', 'wrong-total']
/** Default of `oversize.bytes`: 1 GiB, streamed. */
export const DEFAULT_OVERSIZE_BYTES = 1024 * 1024 * 1024

const ONE_GIB = 1024 * 1024 * 1024
const POINTER = '^(/([^~]|~[01])*)*$'

const kindBranch = (kind: FaultKind, properties: Record<string, unknown> = {}, required: string[] = []) => ({
  type: 'object',
  additionalProperties: false,
  required: ['kind', ...required],
  properties: { kind: { const: kind }, ...properties },
})

const FAULT_SCHEMA = {
  type: 'object',
  required: ['kind'],
  properties: { kind: { type: 'string' } },
  discriminator: { propertyName: 'kind' },
  oneOf: [
    kindBranch('latency', { ms: { type: 'integer', minimum: 0, maximum: 120_000 } }, ['ms']),
    kindBranch(
      'status',
      {
        status: { type: 'integer', minimum: 100, maximum: 599 },
        headers: {
          type: 'object',
          additionalProperties: { type: 'string' },
          propertyNames: { pattern: "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$" },
        },
        body: {},
        contentType: { type: 'string', minLength: 1, maxLength: 200 },
      },
      ['status'],
    ),
    kindBranch('html-error', { status: { type: 'integer', minimum: 400, maximum: 599 } }),
    kindBranch('reset'),
    kindBranch('lost-response'),
    kindBranch('truncate', { bytes: { type: 'integer', minimum: 0 } }),
    kindBranch('oversize', {
      bytes: { type: 'integer', minimum: 1, maximum: 16 * ONE_GIB },
      chunked: { type: 'boolean' },
    }),
    kindBranch('mutate', {
      set: { type: 'object', propertyNames: { pattern: POINTER, minLength: 1 } },
      remove: { type: 'array', items: { type: 'string', pattern: POINTER, minLength: 1 } },
    }),
    kindBranch('pagination', { mode: { enum: PAGINATION_MODES } }, ['mode']),
    kindBranch('tls-handshake'),
  ],
}

export const RULE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['fault'],
  properties: {
    id: { type: 'string', pattern: '^[A-Za-z0-9._-]{1,64}$' },
    origin: { enum: ['base', 'auth', 'directory', 'any'] },
    method: { type: 'string', pattern: '^[A-Za-z]{1,16}$' },
    path: { type: 'string', pattern: '^/', maxLength: 2000 },
    skip: { type: 'integer', minimum: 0 },
    times: { type: 'integer', minimum: 1 },
    fault: FAULT_SCHEMA,
  },
}

let compiled: ValidateFunction | undefined
/**
 * The rule validator, compiled on first use: the command line loads this module for every command (through
 * index.ts) but checks rules only when given some. The meta-schema check of RULE_SCHEMA is made by the unit
 * tests, not on every start.
 */
function validateRule(input: unknown): boolean {
  compiled ??= new Ajv({ allErrors: false, strict: true, discriminator: true, validateSchema: false }).compile(
    RULE_SCHEMA,
  )
  return compiled(input)
}

/** `/fault/ms` under `rules[2]` → `rules[2].fault.ms`. */
function fieldName(prefix: string, pointer: string): string {
  const path = toObPath(pointer)
  return !path ? prefix : !prefix || path.startsWith('[') ? `${prefix}${path}` : `${prefix}.${path}`
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? 'nothing'
  return text.length > 60 ? `${text.slice(0, 57)}...` : text
}

const FIELD_HELP: Record<string, string> = {
  id: 'letters, digits, ".", "_" or "-", at most 64',
  origin: '"base", "auth", "directory" or "any"',
  method: 'an HTTP method such as "GET"',
  path: 'a path glob starting with "/" ("*" within one segment, "**" across segments)',
  skip: 'a whole number of matching requests to let through first, 0 or more',
  times: 'a whole number of requests to apply the fault to, 1 or more (leave it out for every request)',
  ms: 'a whole number of milliseconds from 0 to 120000',
  status: 'an HTTP status code',
  bytes: 'a whole number of bytes',
  mode: `one of ${PAGINATION_MODES.map((m) => `"${m}"`).join(', ')}`,
  headers: 'an object of header names to string values',
  contentType: 'a media type such as "text/html"',
  set: 'an object of JSON pointers (such as "/Data/Account") to the values to put there',
  remove: 'a list of JSON pointers (such as "/Links/Next") to remove',
  chunked: 'true to stream without Content-Length',
}

function sentence(prefix: string, e: ErrorObject, input: unknown): FaultRuleError {
  const field = fieldName(prefix, e.instancePath)
  const last = e.instancePath.split('/').pop() ?? ''
  const got = show(valueAt(input, e.instancePath))
  if (e.propertyName !== undefined) {
    const help = last === 'headers' ? 'a header name (letters, digits and -)' : 'a JSON pointer such as "/Data/Account"'
    return new FaultRuleError(
      `${field}["${e.propertyName}"]`,
      `${field} has the key ${show(e.propertyName)}: each key must be ${help}`,
    )
  }
  switch (e.keyword) {
    case 'required': {
      const missing = fieldName(prefix, errorPointer(e))
      const name = errorMember(e)!
      const help =
        name === 'kind'
          ? `one of ${FAULT_KINDS.join(', ')}`
          : name === 'fault'
            ? 'an object such as {"kind": "status", "status": 503}'
            : (FIELD_HELP[name] ?? 'a value')
      return new FaultRuleError(missing, `${missing} is missing: give ${help}`)
    }
    case 'additionalProperties': {
      const kind = (valueAt(input, e.instancePath) as { kind?: unknown } | undefined)?.kind
      const where = e.instancePath.endsWith('/fault') && typeof kind === 'string' ? `a "${kind}" fault` : 'a fault rule'
      const extra = fieldName(prefix, errorPointer(e))
      return new FaultRuleError(extra, `${extra} is not a field of ${where}; see docs/local-sandbox.md, "Fault mode"`)
    }
    case 'discriminator': {
      const kindField = fieldName(prefix, `${e.instancePath}/kind`)
      return new FaultRuleError(
        kindField,
        `${kindField} is ${show(valueAt(input, `${e.instancePath}/kind`))}: it must be one of ${FAULT_KINDS.join(', ')}`,
      )
    }
    default: {
      const help = FIELD_HELP[last] ?? (last === 'kind' ? `one of ${FAULT_KINDS.join(', ')}` : (e.message ?? 'valid'))
      const bound = e.keyword === 'minimum' || e.keyword === 'maximum' ? ` (${e.message})` : ''
      return new FaultRuleError(field, `${field} is ${got}: it must be ${help}${bound}`)
    }
  }
}

/** Regular expression of a path glob: `*` is any run within one segment, `**` any run across segments. */
export function globToRegExp(glob: string): RegExp {
  let out = ''
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!
    if (c === '*' && glob[i + 1] === '*') {
      out += '.*'
      i++
    } else if (c === '*') {
      out += '[^/]*'
    } else {
      out += c.replace(/[.+?^${}()|[\]\\]/g, '\\$&')
    }
  }
  return new RegExp(`^${out}$`)
}

/**
 * Checks one rule and fills in its defaults; `prefix` names it in errors (`rules[2]`, or `rule`).
 * Throws FaultRuleError naming the first bad field, what it holds and what it must be.
 */
export function parseFaultRule(input: unknown, prefix = 'rule', assignId: () => string = () => 'f1'): FaultRule {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw new FaultRuleError(
      prefix,
      `${prefix} is ${show(input)}: a fault rule is a JSON object such as {"path": "/open-banking/v4.0/aisp/accounts", "fault": {"kind": "status", "status": 503}}`,
    )
  }
  if (!validateRule(input)) throw sentence(prefix, compiled!.errors![0]!, input)
  const rule = input as unknown as FaultRuleInput
  const fault = rule.fault
  if (fault.kind === 'mutate' && !fault.set && !fault.remove) {
    throw new FaultRuleError(
      `${prefix}.fault`,
      `${prefix}.fault is a "mutate" fault with nothing to change: give "set" (JSON pointer → value) or "remove" (a list of JSON pointers)`,
    )
  }
  if (fault.kind === 'mutate' && fault.set && '' in fault.set) {
    throw new FaultRuleError(
      `${prefix}.fault.set[""]`,
      `${prefix}.fault.set cannot replace the whole body (""); use a "status" fault with a body instead`,
    )
  }
  return {
    id: rule.id ?? assignId(),
    origin: rule.origin ?? 'any',
    ...(rule.method ? { method: rule.method.toUpperCase() } : {}),
    path: rule.path ?? '/**',
    skip: rule.skip ?? 0,
    ...(rule.times !== undefined ? { times: rule.times } : {}),
    fault,
  }
}

/**
 * Reads a rule set: `{ "rules": [...] }` (the file of `--faults` and the body of `PUT /admin/faults`) or
 * a bare list. Ids must be unique; missing ids come from `assignId`.
 */
export function parseFaultRules(input: unknown, assignId: () => string): FaultRule[] {
  let list: unknown = input
  if (input !== null && typeof input === 'object' && !Array.isArray(input)) {
    const { rules, ...rest } = input as Record<string, unknown>
    const extra = Object.keys(rest)
    if (extra.length) throw new FaultRuleError(extra[0]!, `${extra[0]} is not expected: a rule set is {"rules": [...]}`)
    if (rules === undefined) throw new FaultRuleError('rules', 'rules is missing: a rule set is {"rules": [...]}')
    list = rules
  }
  if (!Array.isArray(list))
    throw new FaultRuleError('rules', `rules is ${show(list)}: it must be a list of fault rules`)
  const seen = new Set<string>()
  return list.map((item, i) => {
    const rule = parseFaultRule(item, `rules[${i}]`, assignId)
    if (seen.has(rule.id))
      throw new FaultRuleError(
        `rules[${i}].id`,
        `rules[${i}].id "${rule.id}" is already the id of an earlier rule; ids must be unique`,
      )
    seen.add(rule.id)
    return rule
  })
}
