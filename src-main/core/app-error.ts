// The console's one error type. The closed list of codes, the error DTO and its parts are declared once,
// in the contract (src-main/contract/errors.ts, the lowest layer); this file builds the throwable on them.
import type { AppErrorDto, ErrorCode, ErrorDetails, ErrorProblem } from '../contract/errors.ts'
import { codedThrown } from './thrown-error.ts'

export interface AppErrorInit {
  /** What failed. */
  what: string
  /** The likely cause, in words a TPP developer can act on. */
  cause: string
  /** What to do. */
  fix: string
  details?: ErrorDetails
  problems?: ErrorProblem[]
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
  readonly code: ErrorCode
  readonly what: string
  /** The likely cause (a sentence), not the underlying error: that is `source`. */
  override readonly cause: string
  readonly fix: string
  readonly details?: ErrorDetails
  readonly problems?: ErrorProblem[]
  readonly source?: unknown

  constructor(code: ErrorCode, init: AppErrorInit) {
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
  toData(): AppErrorDto {
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
  return (
    value instanceof AppError ||
    (value instanceof Error && value.name === 'AppError' && typeof (value as AppError).code === 'string')
  )
}

/**
 * Turns anything thrown into an AppError: AppErrors pass through; a coded error object keeps its code and
 * sentences; a known system, undici or jose error gets its code (`core/thrown-error.ts`); anything else
 * becomes `INTERNAL` (a bug), naming `what` was being done. The original is kept as `source`.
 */
export function toAppError(value: unknown, what = 'An operation failed'): AppError {
  if (isAppError(value)) return value
  const { code, ...init } = codedThrown(value, what)
  return new AppError(code, { ...init, source: value })
}
