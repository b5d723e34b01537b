import type { Context } from 'koa'
import { bearerChallengeValue, setHeaders } from './header-value.ts'
import { writeErrLine } from '../../plumbing/terminal-out.ts'

/** The 4-character Open Banking v4.0 error codes the sandbox uses, with their v3.1 names. */
export const OB_ERROR_NAMES = {
  U000: 'UK.OBIE.UnexpectedError',
  U001: 'UK.OBIE.Field.Expected',
  U002: 'UK.OBIE.Field.Invalid',
  U003: 'UK.OBIE.Field.InvalidDate',
  U004: 'UK.OBIE.Field.Missing',
  U005: 'UK.OBIE.Field.Unexpected',
  U006: 'UK.OBIE.Header.Invalid',
  U007: 'UK.OBIE.Header.Missing',
  U008: 'UK.OBIE.Resource.ConsentMismatch',
  U009: 'UK.OBIE.Resource.InvalidConsentStatus',
  U010: 'UK.OBIE.Resource.InvalidFormat',
  U011: 'UK.OBIE.Resource.NotFound',
  U012: 'UK.OBIE.Rules.AfterCutOffDateTime',
  U013: 'UK.OBIE.Rules.DuplicateReference',
  U014: 'UK.OBIE.Rules.FailsControlParameters',
  U015: 'UK.OBIE.Signature.Invalid',
  U016: 'UK.OBIE.Signature.InvalidClaim',
  U017: 'UK.OBIE.Signature.MissingClaim',
  U018: 'UK.OBIE.Signature.Malformed',
  U019: 'UK.OBIE.Signature.Missing',
  U020: 'UK.OBIE.Signature.Unexpected',
  U021: 'UK.OBIE.Unsupported.AccountIdentifier',
  U022: 'UK.OBIE.Unsupported.AccountSecondaryIdentifier',
  U023: 'UK.OBIE.Unsupported.Currency',
  U024: 'UK.OBIE.Unsupported.EventType',
  U025: 'UK.OBIE.Unsupported.Frequency',
  U026: 'UK.OBIE.Unsupported.LocalInstrument',
  U027: 'UK.OBIE.Unsupported.Scheme',
  U028: 'UK.OBIE.Reauthenticate',
  U029: 'UK.OBIE.Rules.ResourceAlreadyExists',
} as const

export type ObErrorCode = keyof typeof OB_ERROR_NAMES

export interface ObErrorDetail {
  code: ObErrorCode
  /** What is wrong and what was expected; names the field, header or rule. */
  message: string
  /** JSON path of the offending field, e.g. `Data.Initiation.InstructedAmount.Currency`. */
  path?: string
}

/**
 * An error the resource server answers with the v4.0 error body. Throw it from a route; the error
 * middleware turns it into the response, so a route never writes an error body by hand.
 */
export class ObApiError extends Error {
  readonly details: ObErrorDetail[]
  constructor(
    readonly status: 400 | 403 | 404 | 405 | 406 | 409 | 415 | 429,
    details: ObErrorDetail | ObErrorDetail[],
    readonly headers: Record<string, string> = {},
  ) {
    const list = Array.isArray(details) ? details : [details]
    super(list.map((d) => `${d.code} ${d.message}`).join('; '))
    this.details = list
  }
}

/** 401 without a body, as v4.0 says for a missing or invalid token. */
export class UnauthorisedError extends Error {
  constructor(readonly reason: string) {
    super(reason)
  }
}

/** The v4.0 `OBErrorResponse1` body. The old `UK.OBIE.*` name leads each message, as the v4.0 docs show. */
export function obErrorBody(status: number, details: ObErrorDetail[], interactionId: string): object {
  return {
    Id: interactionId.slice(0, 40),
    Code: String(status),
    Message: details[0]?.message.slice(0, 500) ?? 'Error',
    Errors: details.map((d) => ({
      ErrorCode: d.code,
      Message: `${OB_ERROR_NAMES[d.code]} - ${d.message}`.slice(0, 500),
      ...(d.path ? { Path: d.path } : {}),
    })),
  }
}

/**
 * Koa middleware for the resource server: turns thrown errors into v4.0 responses. Anything
 * unexpected becomes a 500 with `U000` (and is logged), so the server keeps serving.
 */
export function obErrorMiddleware(log: (msg: string) => void = writeErrLine) {
  return async (ctx: Context, next: () => Promise<unknown>) => {
    try {
      await next()
    } catch (err) {
      const interactionId = String(ctx.response.get('x-fapi-interaction-id') || '')
      if (err instanceof ObApiError) {
        ctx.status = err.status
        setHeaders(ctx, err.headers)
        ctx.body = obErrorBody(err.status, err.details, interactionId)
        return
      }
      if (err instanceof UnauthorisedError) {
        // Body first: koa turns `body = null` into 204 unless the status is set afterwards.
        ctx.body = null
        ctx.status = 401
        ctx.set('WWW-Authenticate', bearerChallengeValue('invalid_token', err.reason))
        return
      }
      log(`local sandbox: unexpected error on ${ctx.method} ${ctx.path}: ${(err as Error).stack ?? String(err)}`)
      ctx.status = 500
      ctx.body = obErrorBody(
        500,
        [
          {
            code: 'U000',
            message:
              'Unexpected error in the local sandbox; this is a sandbox bug, please report it with the x-fapi-interaction-id.',
          },
        ],
        interactionId,
      )
    }
  }
}
