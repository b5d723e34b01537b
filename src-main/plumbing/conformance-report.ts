/**
 * The local sandbox's conformance report as it travels: the JSON `GET {directory}/admin/conformance?client_id=`
 * answers. The sandbox writes it (its report type extends this one), the console's report view and the
 * `sandbox report` command read it, and a reader checks the whole answer against the schema below before trusting
 * a field: a sandbox of another version, or another server on that address, gets a message naming the first
 * field that is not as expected, never a crash on a missing member.
 */
import { Ajv, type ValidateFunction } from 'ajv'
import { errorPointer, toObPath } from './json-pointer.ts'

/** One failed check: the request it was seen on, what was wrong, the spec it rests on. */
export interface ConformanceFailureWire {
  /** Wall time, ISO 8601. */
  at: string
  method: string
  /** Path without the query. */
  path: string
  /** The x-fapi-interaction-id the response carried (the client's own when it sent a UUID). */
  interactionId: string
  /** The status answered. */
  status: number
  /** What was wrong and what to do, in the sandbox's words. */
  detail: string
  /** The spec section(s) the rule rests on. */
  spec: string
  /** True when the sandbox refused the request (a 4xx); false when it answered and only recorded the failure. */
  refused: boolean
}

export interface ConformanceRuleWire {
  /** Rule id, e.g. `headers.required`, `pagination`. */
  id: string
  title: string
  checks: string
  spec: string
  enforcement: 'refused' | 'recorded' | 'both'
  passed: number
  failed: number
  /** The most recent failures, newest last. */
  lastFailures: ConformanceFailureWire[]
}

export interface ConformanceReportWire {
  /** The client id, or `cert:<x5t#S256>` for requests of a certificate no valid token named. */
  clientId: string
  keyedBy: 'client' | 'certificate'
  /** True when no rule failed. */
  ok: boolean
  requests: number
  firstSeen: string
  lastSeen: string
  rules: ConformanceRuleWire[]
}

const text = { type: 'string' } as const
const count = { type: 'integer', minimum: 0 } as const

/** The report's JSON Schema: every member above required and of its type; members it does not name are allowed. */
export const CONFORMANCE_REPORT_SCHEMA = {
  type: 'object',
  required: ['clientId', 'keyedBy', 'ok', 'requests', 'firstSeen', 'lastSeen', 'rules'],
  properties: {
    clientId: text,
    keyedBy: { enum: ['client', 'certificate'] },
    ok: { type: 'boolean' },
    requests: count,
    firstSeen: text,
    lastSeen: text,
    rules: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'title', 'checks', 'spec', 'enforcement', 'passed', 'failed', 'lastFailures'],
        properties: {
          id: text,
          title: text,
          checks: text,
          spec: text,
          enforcement: { enum: ['refused', 'recorded', 'both'] },
          passed: count,
          failed: count,
          lastFailures: {
            type: 'array',
            items: {
              type: 'object',
              required: ['at', 'method', 'path', 'interactionId', 'status', 'detail', 'spec', 'refused'],
              properties: {
                at: text,
                method: text,
                path: text,
                interactionId: text,
                status: { type: 'integer' },
                detail: text,
                spec: text,
                refused: { type: 'boolean' },
              },
            },
          },
        },
      },
    },
  },
} as const

let validate: ValidateFunction<ConformanceReportWire> | undefined

/**
 * The report in `json` when it is one; else the first problem, naming the member as an OB-style path
 * (`rules[2].passed must be integer`).
 */
export function readConformanceReport(json: unknown): { report: ConformanceReportWire } | { problem: string } {
  validate ??= new Ajv({ allErrors: false, strict: true }).compile<ConformanceReportWire>(CONFORMANCE_REPORT_SCHEMA)
  if (validate(json)) return { report: json }
  const e = validate.errors![0]!
  const where = toObPath(errorPointer(e)) || 'the answer'
  return { problem: e.keyword === 'required' ? `${where} is missing` : `${where} ${e.message ?? 'is not valid'}` }
}
