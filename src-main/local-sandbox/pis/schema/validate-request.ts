import { validateRequestBody as validateAgainst } from '../../openapi/request-body.ts'

export { toObPath } from '../../../plumbing/json-pointer.ts'

/** The official v4.0 schema of each PIS request body the sandbox accepts (resources/openapi/payment-initiation.json). */
const SCHEMAS = { consent: 'OBWriteDomesticConsent4', payment: 'OBWriteDomestic2' } as const

/**
 * Validates a parsed request body against the official v4.0 schema (`consent`: OBWriteDomesticConsent4,
 * `payment`: OBWriteDomestic2). Throws a 400 `ObApiError` listing every problem with its code and JSON path.
 */
export function validateRequestBody(kind: keyof typeof SCHEMAS, body: unknown): void {
  validateAgainst('pis', SCHEMAS[kind], body)
}
