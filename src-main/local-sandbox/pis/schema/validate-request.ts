import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv'
import addFormatsModule from 'ajv-formats'
import { ObApiError, type ObErrorDetail } from '../../http/ob-error.ts'
import type { JsonSchema } from './common-schemas.ts'
import { V31_PAYMENT_CONTEXT_CODES, WRITE_DOMESTIC, WRITE_DOMESTIC_CONSENT } from './request-schemas.ts'

const addFormats = addFormatsModule.default

/** At most this many schema problems are reported in one error body. */
const MAX_REPORTED = 20

const ajv = new Ajv({ allErrors: true, strict: true })
addFormats(ajv, ['date-time', 'date'])

/** Converts an ajv JSON pointer (`/Data/Initiation/X/0`) to the OB JSON path (`Data.Initiation.X[0]`). */
export function toObPath(pointer: string, child?: string): string {
  const segments = pointer.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
  if (child !== undefined) segments.push(child)
  let path = ''
  for (const s of segments) path += /^\d+$/.test(s) ? `[${s}]` : path ? `.${s}` : s
  return path
}

/** Fields a v3.1 body carries that v4.0 removed, with where the data goes now. */
const V31_LEFTOVERS: Record<string, string> = {
  'RemittanceInformation.Reference':
    'v4.0 removed RemittanceInformation.Reference: put the payee reference in RemittanceInformation.Structured[].CreditorReferenceInformation.Reference',
}

function describeValue(value: unknown): string {
  const text = JSON.stringify(value)
  return text === undefined ? 'undefined' : text.length > 60 ? `${text.slice(0, 57)}...` : text
}

/** Maps one ajv error to an OB error: U004 missing, U005 unexpected, U003 bad date, U002 anything else invalid. */
function toObError(e: ErrorObject, body: unknown): ObErrorDetail {
  const at = toObPath(e.instancePath)
  const where = at || 'the body'
  switch (e.keyword) {
    case 'required': {
      const path = toObPath(e.instancePath, (e.params as { missingProperty: string }).missingProperty)
      return { code: 'U004', path, message: `${path} is missing; it is mandatory in v4.0` }
    }
    case 'additionalProperties': {
      const extra = (e.params as { additionalProperty: string }).additionalProperty
      const path = toObPath(e.instancePath, extra)
      const leftover = Object.entries(V31_LEFTOVERS).find(([suffix]) => path.endsWith(suffix))
      const hint = leftover ? leftover[1] : `remove it; ${where} has no field "${extra}" in v4.0`
      return { code: 'U005', path, message: `${path} is not expected: ${hint}` }
    }
    case 'format':
      return { code: 'U003', path: at, message: `${where} is ${describeValue(valueAt(body, e.instancePath))}; it must be an ISO 8601 ${(e.params as { format: string }).format === 'date' ? 'date (YYYY-MM-DD)' : 'date-time with a timezone, e.g. 2025-06-01T10:00:00+00:00'}` }
    case 'enum': {
      const value = valueAt(body, e.instancePath)
      const allowed = (e.params as { allowedValues: unknown[] }).allowedValues.join(', ')
      const v31 = at.endsWith('PaymentContextCode') && V31_PAYMENT_CONTEXT_CODES.includes(value as string)
      return { code: 'U002', path: at, message: `${where} is ${describeValue(value)}${v31 ? ', a v3.1 value that v4.0 removed' : ''}; allowed: ${allowed}` }
    }
    case 'pattern':
      return { code: 'U002', path: at, message: `${where} is ${describeValue(valueAt(body, e.instancePath))}; it must match ${(e.params as { pattern: string }).pattern}` }
    case 'type':
      return { code: 'U002', path: at, message: `${where} must be ${(e.params as { type: string }).type === 'object' ? 'a JSON object' : `of type ${(e.params as { type: string }).type}`}` }
    default:
      return { code: 'U002', path: at, message: `${where} ${e.message ?? 'is invalid'}` }
  }
}

function valueAt(body: unknown, pointer: string): unknown {
  let node = body
  for (const s of pointer.split('/').slice(1)) {
    if (node === null || typeof node !== 'object') return undefined
    node = (node as Record<string, unknown>)[s.replace(/~1/g, '/').replace(/~0/g, '~')]
  }
  return node
}

function compile(schema: JsonSchema): ValidateFunction {
  return ajv.compile(schema)
}

const SCHEMAS = { consent: WRITE_DOMESTIC_CONSENT, payment: WRITE_DOMESTIC }
// Compiled on first use: compiling both costs a few hundred milliseconds, which a sandbox that never
// sees a payment (an AIS run, `ob-console sandbox --issue-tpp`) should not pay at start.
const validators: Partial<Record<keyof typeof SCHEMAS, ValidateFunction>> = {}

/**
 * Validates a parsed request body against the v4.0 schema (`consent`: OBWriteDomesticConsent4,
 * `payment`: OBWriteDomestic2). Throws a 400 `ObApiError` listing every problem with its code and
 * JSON path.
 */
export function validateRequestBody(kind: keyof typeof SCHEMAS, body: unknown): void {
  const validate = (validators[kind] ??= compile(SCHEMAS[kind]))
  if (validate(body)) return
  const details = (validate.errors ?? []).slice(0, MAX_REPORTED).map((e) => toObError(e, body))
  throw new ObApiError(400, details.length ? details : [{ code: 'U002', message: 'the body does not match the v4.0 schema' }])
}
