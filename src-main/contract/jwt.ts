import type { CheckResult } from './checks.ts'

/** A JWT (or JWS) decoded for display: header, claims, times as ISO dates, and any checks made on it. */
export interface DecodedJwtDto {
  /** Where it was found: `request body`, `form client_assertion`, `query request`, `fragment id_token`, `header x-jws-signature`... */
  location: string
  header: Record<string, unknown>
  /** Claims (payload) of a JWT; undefined for a detached JWS (the payload is the HTTP body) or a non-JSON payload. */
  claims?: Record<string, unknown>
  /** `iat`, `nbf`, `exp` (and OB `http://openbanking.org.uk/iat`) as ISO-8601 strings. */
  times: Record<string, string>
  /** `alg: none` tokens and detached signatures have no (or a separate) signature part. */
  signature: 'present' | 'none' | 'detached'
  /** The compact form as shown (its signature redacted unless revealed). */
  compact: string
  checks?: CheckResult[]
  /** Why it could not be decoded, when it could not. */
  error?: string
}
