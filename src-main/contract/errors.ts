// Error codes and the error DTO of the contract, declared here once. Pure TypeScript: the renderer imports
// this file, and so does core (src-main/core/app-error.ts builds the throwable AppError on these types).

/** Every error code the console can report: a closed set the renderer can switch on. */
export const ERROR_CODES = [
  // Transport: TLS
  'TLS_CLIENT_CERT_REFUSED',
  'TLS_SERVER_UNTRUSTED',
  'TLS_HOSTNAME_MISMATCH',
  'TLS_SERVER_CERT_EXPIRED',
  'TLS_HANDSHAKE_FAILED',
  // Transport: network
  'DNS_NOT_FOUND',
  'CONNECTION_REFUSED',
  'CONNECTION_RESET',
  'TIMEOUT',
  'NETWORK_ERROR',
  'ORIGIN_NOT_ALLOWED',
  // Protocol answers
  'HTTP_ERROR',
  'OB_ERROR',
  'DCR_ERROR',
  'OAUTH_ERROR',
  // The PSU's return from the bank (pasted, loopback, deeplink): each problem its own code, `details.wayOn` the way on
  'AUTH_RETURN_ERROR',
  'AUTH_RETURN_STATE_MISMATCH',
  'AUTH_RETURN_NO_CODE',
  'AUTH_RETURN_CODE_IN_QUERY',
  'AUTH_RETURN_OTHER_FLOW',
  'AUTH_RETURN_NOT_A_URL',
  // A grant or client authentication the bank's discovery document does not advertise
  'NOT_ADVERTISED',
  'BANK_ANSWER_INVALID',
  'RESPONSE_TOO_LARGE',
  // Input and material
  'INVALID_INPUT',
  'CERTIFICATE_INVALID',
  'CERTIFICATE_EXPIRED',
  'CERTIFICATE_CHAIN_INVALID',
  'KEY_INVALID',
  'KEY_UNSUPPORTED',
  'KEY_MISMATCH',
  'PASSPHRASE_REQUIRED',
  'PASSPHRASE_WRONG',
  'SECRET_INLINE',
  // Tokens and signatures
  'JWT_MALFORMED',
  'CLAIMS_INVALID',
  'SIGNATURE_INVALID',
  // Storage and everything else
  // Flows and the transport of the contract
  'FLOW_STEP_NOT_READY',
  'FLOW_CHECK_FAILED',
  'ACCESS_REFUSED',
  'NOT_FOUND',
  'STORE_ERROR',
  'INTERNAL',
] as const

export type ErrorCode = (typeof ERROR_CODES)[number]

/** Scalar facts attached to an error (status, URL, field, thumbprint...), for display next to the sentences. */
export type ErrorDetails = Record<string, string | number | boolean | null>

/**
 * An error as it crosses the contract. Every field is a sentence a TPP developer can act on.
 *
 * @example { code: 'TLS_SERVER_UNTRUSTED', what: 'TLS handshake with https://127.0.0.1:8443 failed',
 *   cause: 'the server certificate is not issued by a CA this environment trusts', fix: 'add the ... CA bundle' }
 */
export interface AppErrorDto {
  code: ErrorCode
  /** What failed, e.g. "POST https://bank/token was refused during the TLS handshake". */
  what: string
  /** The likely cause. */
  cause: string
  /** What to do about it. */
  fix: string
  details?: ErrorDetails
  /** Individual problems when one error carries several (Open Banking `Errors[]`, invalid claims...). */
  problems?: ErrorProblem[]
}

/** One of several problems carried by an error: an Open Banking error entry, an invalid claim, a field. */
export interface ErrorProblem {
  /** The OB code (`U002`), OAuth/DCR error (`invalid_client`) or claim/field name. */
  code: string
  message: string
  /** JSON path or claim name the problem is about. */
  path?: string
  /** A plain-words explanation of the code, when the console knows it. */
  explanation?: string
}

/** The answer of every contract call: the value, or an error DTO. Calls never throw across the contract. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: AppErrorDto }

/** True when `value` is one of the known error codes. */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value)
}
