import { Ajv, type ErrorObject } from 'ajv'
import addFormatsModule from 'ajv-formats'
import { ObApiError, type ObErrorDetail } from '../../http/ob-error.ts'

const addFormats = addFormatsModule.default

/**
 * JSON schema of the v4.0 `OBReadConsent1` request body (written from the v4.0 data dictionary):
 * `Data.Permissions` (a list of codes, checked further by `validatePermissions`), optional
 * `ExpirationDateTime`, `TransactionFromDateTime`, `TransactionToDateTime` (ISO 8601 date-times with a
 * timezone), and `Risk`, the empty `OBRisk2` object that admits no properties.
 */
export const OB_READ_CONSENT_1 = {
  type: 'object',
  additionalProperties: false,
  required: ['Data', 'Risk'],
  properties: {
    Data: {
      type: 'object',
      additionalProperties: false,
      required: ['Permissions'],
      properties: {
        Permissions: { type: 'array', items: { type: 'string', minLength: 1, maxLength: 40 }, maxItems: 50 },
        ExpirationDateTime: { type: 'string', format: 'date-time' },
        TransactionFromDateTime: { type: 'string', format: 'date-time' },
        TransactionToDateTime: { type: 'string', format: 'date-time' },
      },
    },
    Risk: { type: 'object', additionalProperties: false, properties: {} },
  },
} as const

export interface ReadConsentRequest {
  Data: { Permissions: string[]; ExpirationDateTime?: string; TransactionFromDateTime?: string; TransactionToDateTime?: string }
  Risk: Record<string, never>
}

const ajv = new Ajv({ allErrors: true, strict: true })
addFormats(ajv, ['date-time'])
const validate = ajv.compile<ReadConsentRequest>(OB_READ_CONSENT_1)

/** `/Data/Permissions/0` → `Data.Permissions[0]`. */
function obPath(pointer: string, child?: string): string {
  const parts = pointer.split('/').slice(1)
  if (child !== undefined) parts.push(child)
  return parts.reduce((path, s) => (/^\d+$/.test(s) ? `${path}[${s}]` : path ? `${path}.${s}` : s), '')
}

function valueAt(body: unknown, pointer: string): unknown {
  let node = body
  for (const s of pointer.split('/').slice(1)) node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[s] : undefined
  return node
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? 'undefined'
  return text.length > 60 ? `${text.slice(0, 57)}...` : text
}

function toDetail(e: ErrorObject, body: unknown): ObErrorDetail {
  const path = obPath(e.instancePath)
  const where = path || 'the body'
  switch (e.keyword) {
    case 'required': {
      const missing = obPath(e.instancePath, (e.params as { missingProperty: string }).missingProperty)
      const hint = missing === 'Risk' ? ' (send "Risk": {})' : ''
      return { code: 'U004', path: missing, message: `${missing} is missing; it is mandatory in OBReadConsent1${hint}` }
    }
    case 'additionalProperties': {
      const extra = obPath(e.instancePath, (e.params as { additionalProperty: string }).additionalProperty)
      const hint = path === 'Risk' ? 'Risk is the empty object {} for account access consents' : `${where} has no such field in v4.0`
      return { code: 'U005', path: extra, message: `${extra} is not expected: ${hint}` }
    }
    case 'format':
      return { code: 'U003', path, message: `${where} is ${show(valueAt(body, e.instancePath))}; it must be an ISO 8601 date-time with a timezone, e.g. 2026-12-31T23:59:59+00:00` }
    case 'type':
      return { code: 'U002', path, message: `${where} must be ${(e.params as { type: string }).type === 'object' ? 'a JSON object' : `of type ${(e.params as { type: string }).type}`}` }
    default:
      return { code: 'U002', path, message: `${where} ${e.message ?? 'is invalid'}` }
  }
}

/** Validates a parsed body against `OBReadConsent1`; throws 400 listing every problem (at most 20). */
export function validateReadConsent(body: unknown): ReadConsentRequest {
  if (validate(body)) return body
  throw new ObApiError(400, (validate.errors ?? []).slice(0, 20).map((e) => toDetail(e, body)))
}
