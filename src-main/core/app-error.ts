// The console's one error type. Core may not import the contract, so the code list is repeated here;
// test/unit/contract/errors.test.ts keeps it identical to src-main/contract/errors.ts.

/** The closed set of error codes (same list, same order as the contract's ERROR_CODES). */
export const APP_ERROR_CODES = [
  'TLS_CLIENT_CERT_REFUSED',
  'TLS_SERVER_UNTRUSTED',
  'TLS_HOSTNAME_MISMATCH',
  'TLS_SERVER_CERT_EXPIRED',
  'TLS_HANDSHAKE_FAILED',
  'DNS_NOT_FOUND',
  'CONNECTION_REFUSED',
  'CONNECTION_RESET',
  'TIMEOUT',
  'NETWORK_ERROR',
  'ORIGIN_NOT_ALLOWED',
  'HTTP_ERROR',
  'OB_ERROR',
  'DCR_ERROR',
  'OAUTH_ERROR',
  'BANK_ANSWER_INVALID',
  'RESPONSE_TOO_LARGE',
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
  'JWT_MALFORMED',
  'CLAIMS_INVALID',
  'SIGNATURE_INVALID',
  // Flows and the transport of the contract
  'FLOW_STEP_NOT_READY',
  'FLOW_CHECK_FAILED',
  'ACCESS_REFUSED',
  'NOT_FOUND',
  'STORE_ERROR',
  'INTERNAL',
] as const

export type AppErrorCode = (typeof APP_ERROR_CODES)[number]

export type AppErrorDetails = Record<string, string | number | boolean | null>

/** One of several problems an error carries (an OB `Errors[]` entry, an invalid claim...). */
export interface AppErrorProblem {
  code: string
  message: string
  path?: string
  explanation?: string
}

/** The serialisable form of an AppError; structurally the contract's AppErrorDto. */
export interface AppErrorData {
  code: AppErrorCode
  what: string
  cause: string
  fix: string
  details?: AppErrorDetails
  problems?: AppErrorProblem[]
}

export interface AppErrorInit {
  /** What failed. */
  what: string
  /** The likely cause, in words a TPP developer can act on. */
  cause: string
  /** What to do. */
  fix: string
  details?: AppErrorDetails
  problems?: AppErrorProblem[]
  /** The underlying error (kept for logs, never sent across the contract). */
  source?: unknown
}

/**
 * An error with a stable code and three sentences: what failed, the likely cause, the fix.
 * Code switches on `code`; tests assert `code`, never the message.
 *
 * @example throw new AppError('PASSPHRASE_WRONG', { what: 'Opening client.p12 failed', cause: 'the passphrase is wrong', fix: 'enter the passphrase the file was exported with' })
 */
export class AppError extends Error {
  readonly code: AppErrorCode
  readonly what: string
  /** The likely cause (a sentence), not the underlying error: that is `source`. */
  override readonly cause: string
  readonly fix: string
  readonly details?: AppErrorDetails
  readonly problems?: AppErrorProblem[]
  readonly source?: unknown

  constructor(code: AppErrorCode, init: AppErrorInit) {
    super(`${init.what}: ${init.cause}. Fix: ${init.fix}`)
    this.name = 'AppError'
    this.code = code
    this.what = init.what
    this.cause = init.cause
    this.fix = init.fix
    if (init.details) this.details = init.details
    if (init.problems) this.problems = init.problems
    if (init.source !== undefined) this.source = init.source
  }

  /** The form that crosses the contract (no stack, no source error). */
  toData(): AppErrorData {
    return {
      code: this.code,
      what: this.what,
      cause: this.cause,
      fix: this.fix,
      ...(this.details ? { details: this.details } : {}),
      ...(this.problems ? { problems: this.problems } : {}),
    }
  }
}

/** True for an AppError (also across module copies: checks the shape, not only the prototype). */
export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError || (value instanceof Error && value.name === 'AppError' && typeof (value as AppError).code === 'string')
}

/**
 * Turns anything thrown into an AppError: AppErrors pass through; anything else becomes `INTERNAL`,
 * naming `what` was being done and keeping the original as `source`.
 */
export function toAppError(value: unknown, what = 'An operation failed'): AppError {
  if (isAppError(value)) return value
  const message = value instanceof Error ? value.message : String(value)
  return new AppError('INTERNAL', {
    what,
    cause: `an unexpected error: ${message}`,
    fix: 'this is a bug in the console; report it with the steps that led to it',
    source: value,
  })
}
