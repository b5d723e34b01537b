import { validateRequestBody } from '../../openapi/request-body.ts'

/** The v4.0 `OBReadConsent1` request body (the official schema in resources/openapi/account-info.json). */
export interface ReadConsentRequest {
  Data: {
    Permissions: string[]
    ExpirationDateTime?: string
    TransactionFromDateTime?: string
    TransactionToDateTime?: string
  }
  Risk: Record<string, never>
}

/** Validates a parsed body against the official `OBReadConsent1`; throws 400 listing every problem (at most 20). */
export function validateReadConsent(body: unknown): ReadConsentRequest {
  return validateRequestBody<ReadConsentRequest>('ais', 'OBReadConsent1', body)
}
