import type { ErrorObject } from 'ajv'
import { ObApiError, type ObErrorDetail } from '../http/ob-error.ts'
import { describeValue, errorMember, errorPointer, toObPath, valueAt } from '../../plumbing/json-pointer.ts'
import { obSchemas, type ObApi } from './ob-openapi.ts'
import { REQUEST_SCHEMAS } from './request-validators.ts'

/** At most this many schema problems are reported in one error body. */
const MAX_REPORTED = 20

/** v3.1.x PaymentContextCode values that v4.0 dropped, named in the error message when a TPP sends one. */
const V31_PAYMENT_CONTEXT_CODES = [
  'PispPayee',
  'BillPayment',
  'EcommerceGoods',
  'EcommerceServices',
  'Other',
  'PartyToParty',
]

/** Fields a v3.1 body carries that v4.0 removed, with where the data goes now. */
const V31_LEFTOVERS: Record<string, string> = {
  'RemittanceInformation.Reference':
    'v4.0 removed RemittanceInformation.Reference: put the payee reference in RemittanceInformation.Structured[].CreditorReferenceInformation.Reference',
  'Risk.': 'Risk is the empty object {} for account access consents',
}

/**
 * Maps one ajv error to an OB error: U004 (`UK.OBIE.Field.Missing`) for a missing field, U005
 * (`Field.Unexpected`) for one the schema does not have, U003 (`Field.InvalidDate`) for a bad date, U002
 * (`Field.Invalid`) for anything else; each with the field's `Path`.
 */
export function toObError(e: ErrorObject, body: unknown, schemaName: string): ObErrorDetail {
  const at = toObPath(e.instancePath)
  const where = at || 'the body'
  switch (e.keyword) {
    case 'required': {
      const path = toObPath(errorPointer(e))
      const hint = path === 'Risk' ? ' (send "Risk": {} when there is nothing to say)' : ''
      return { code: 'U004', path, message: `${path} is missing; it is mandatory in ${schemaName}${hint}` }
    }
    case 'additionalProperties': {
      const extra = errorMember(e)
      const path = toObPath(errorPointer(e))
      const leftover = Object.entries(V31_LEFTOVERS).find(([key]) =>
        key.endsWith('.')
          ? path.startsWith(key) && !path.includes('.', key.length) && schemaName === 'OBReadConsent1'
          : path.endsWith(key),
      )
      const hint = leftover ? leftover[1] : `remove it; ${where} has no field "${extra}" in v4.0`
      return { code: 'U005', path, message: `${path} is not expected: ${hint}` }
    }
    case 'format': {
      const format = (e.params as { format: string }).format
      if (format === 'date' || format === 'date-time') {
        const wanted =
          format === 'date' ? 'date (YYYY-MM-DD)' : 'date-time with a timezone, e.g. 2026-06-01T10:00:00+00:00'
        return {
          code: 'U003',
          path: at,
          message: `${where} is ${describeValue(valueAt(body, e.instancePath))}; it must be an ISO 8601 ${wanted}`,
        }
      }
      return {
        code: 'U002',
        path: at,
        message: `${where} is ${describeValue(valueAt(body, e.instancePath))}; it must be a ${format}`,
      }
    }
    case 'enum': {
      const value = valueAt(body, e.instancePath)
      const allowed = (e.params as { allowedValues: unknown[] }).allowedValues.join(', ')
      const v31 = at.endsWith('PaymentContextCode') && V31_PAYMENT_CONTEXT_CODES.includes(value as string)
      return {
        code: 'U002',
        path: at,
        message: `${where} is ${describeValue(value)}${v31 ? ', a v3.1 value that v4.0 removed' : ''}; allowed: ${allowed}`,
      }
    }
    case 'minItems': {
      const value = valueAt(body, e.instancePath)
      if (Array.isArray(value) && value.length === 0)
        return {
          code: 'U004',
          path: at,
          message: `${where} is empty; it needs at least ${(e.params as { limit: number }).limit} entry`,
        }
      return { code: 'U002', path: at, message: `${where} ${e.message ?? 'has too few entries'}` }
    }
    case 'pattern':
      return {
        code: 'U002',
        path: at,
        message: `${where} is ${describeValue(valueAt(body, e.instancePath))}; it must match ${(e.params as { pattern: string }).pattern}`,
      }
    case 'type': {
      const type = (e.params as { type: string }).type
      return {
        code: 'U002',
        path: at,
        message: `${where} must be ${type === 'object' ? 'a JSON object' : `of type ${type}`}`,
      }
    }
    default:
      return { code: 'U002', path: at, message: `${where} ${e.message ?? 'is invalid'}` }
  }
}

/**
 * Fields that v4.0 removed but whose objects the official file leaves open (no `additionalProperties:
 * false`): a v3.1 body would pass the schema and the data would be dropped without a word. The sandbox
 * refuses them with U005, a rule of its own on top of the schema (docs/local-sandbox/pis.md).
 */
const V31_REMOVED_FIELDS: Record<string, string[]> = {
  OBWriteDomesticConsent4: ['/Data/Initiation/RemittanceInformation/Reference'],
  OBWriteDomestic2: ['/Data/Initiation/RemittanceInformation/Reference'],
}

function removedFieldErrors(schemaName: string, body: unknown): ObErrorDetail[] {
  return (V31_REMOVED_FIELDS[schemaName] ?? [])
    .filter((pointer) => valueAt(body, pointer) !== undefined)
    .map((pointer) => {
      const path = toObPath(pointer)
      const hint = Object.entries(V31_LEFTOVERS).find(([key]) => path.endsWith(key))?.[1] ?? 'v4.0 removed it'
      return { code: 'U005' as const, path, message: `${path} is not expected: ${hint}` }
    })
}

/**
 * Validates a parsed request body against the official v4.0 schema `schemaName` (e.g. `OBReadConsent1`).
 * Throws a 400 `ObApiError` listing every problem (at most 20) with its code and JSON path.
 */
export function validateRequestBody<T>(api: ObApi, schemaName: string, body: unknown): T {
  const errors = obSchemas().check(api, schemaName, body)
  const details = [...errors.map((e) => toObError(e, body, schemaName)), ...removedFieldErrors(schemaName, body)]
  if (!details.length) return body as T
  throw new ObApiError(400, details.slice(0, MAX_REPORTED))
}

/** Makes the request validators ready when the sandbox starts (built ahead, or compiled now), not on a request. */
export function precompileRequestSchemas(): void {
  const s = obSchemas()
  s.precompile('ais', REQUEST_SCHEMAS.ais)
  s.precompile('pis', REQUEST_SCHEMAS.pis)
}
