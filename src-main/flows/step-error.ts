import type { ErrorCode } from '../contract/errors.ts'
import type { StepErrorDto } from '../contract/flows.ts'
import { codedThrown } from '../core/thrown-error.ts'

/**
 * The codes that are about an exchange: the connection, the bank's answer, the checks made on it. A failure
 * with one of them that does not name its exchange is about the last exchange the step made.
 */
const ABOUT_AN_EXCHANGE: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'TLS_CLIENT_CERT_REFUSED',
  'TLS_SERVER_UNTRUSTED',
  'TLS_HOSTNAME_MISMATCH',
  'TLS_SERVER_CERT_EXPIRED',
  'TLS_HANDSHAKE_FAILED',
  'DNS_NOT_FOUND',
  'CONNECTION_REFUSED',
  'CONNECTION_RESET',
  'NETWORK_ERROR',
  'ORIGIN_NOT_ALLOWED',
  'HTTP_ERROR',
  'OB_ERROR',
  'DCR_ERROR',
  'OAUTH_ERROR',
  'BANK_ANSWER_INVALID',
  'RESPONSE_TOO_LARGE',
  'SIGNATURE_INVALID',
  'FLOW_CHECK_FAILED',
])

/**
 * A step's failure as its state records it: the thrown value's code and sentences (a coded error keeps
 * its own; see `core/thrown-error.ts` for the rest), the step's id, and the exchange that failed: the
 * one the error names (`details.exchangeId`), else, for a code about an exchange, the last the step made.
 *
 * @example toStepError(err, { id: 'consent', title: 'Account access consent' }, ['x1', 'x2'])
 *   // { code: 'OB_ERROR', what: …, cause: …, fix: …, step: 'consent', exchangeId: 'x2', details: {…} }
 */
export function toStepError(
  err: unknown,
  step: { id: string; title: string },
  exchangeIds: readonly string[],
): StepErrorDto {
  const e = codedThrown(err, `"${step.title}" failed.`)
  const named = e.details?.exchangeId
  const exchangeId =
    typeof named === 'string' && named ? named : ABOUT_AN_EXCHANGE.has(e.code) ? exchangeIds.at(-1) : undefined
  return {
    code: e.code,
    what: e.what,
    cause: e.cause,
    fix: e.fix,
    step: step.id,
    ...(exchangeId ? { exchangeId } : {}),
    ...(e.details ? { details: e.details } : {}),
    ...(e.problems ? { problems: e.problems } : {}),
  }
}
