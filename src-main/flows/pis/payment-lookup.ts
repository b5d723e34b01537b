import type { ErrorCode } from '../../contract/errors.ts'
import { AppError, isAppError } from '../../core/app-error.ts'
import { apiUrl, bearerGet } from '../common/bank-requests.ts'
import { CLIENT_CREDENTIALS_STEP } from '../common/tokens.ts'
import type { StepScope } from '../step-machine.ts'
import type { PendingPayment, PisFlowContext } from './pis-context.ts'
import { jsonMember } from '../../http/json-body.ts'

/**
 * Failures of the send itself after which the request may still have reached the bank and been carried
 * out: no answer was read. A later try can fail otherwise than the first (a reset, then a refused or
 * failed handshake on the new connection), so every transport failure counts, not only a reset.
 */
export const LOST_ANSWER = new Set([
  'CONNECTION_RESET',
  'TIMEOUT',
  'NETWORK_ERROR',
  'TLS_HANDSHAKE_FAILED',
  'TLS_CLIENT_CERT_REFUSED',
  'CONNECTION_REFUSED',
  // An answer came but could not be read (a head that is not HTTP/1.1, a body that cannot be decoded).
  'BANK_ANSWER_INVALID',
])

/**
 * After a payment request whose answer never came (or a resend the bank refused): asks the bank what
 * became of it, without sending anything that could pay. The consent says whether it was spent
 * (`COND`: a payment exists); the payment, when its id is known, says its status. Returns the error
 * the step fails with, which says what was found and what to do.
 */
export async function lookUpPayment(
  ctx: PisFlowContext,
  scope: StepScope,
  pending: PendingPayment,
  happened: string,
  refusal?: AppError,
  /** The code of the failure that lost the answer (default CONNECTION_RESET). */
  lostCode: ErrorCode = 'CONNECTION_RESET',
): Promise<AppError> {
  const facts: string[] = []
  let consentStatus: string | undefined
  if (scope.has(CLIENT_CREDENTIALS_STEP)) {
    const cc = scope.output(CLIENT_CREDENTIALS_STEP).accessToken
    try {
      const res = await bearerGet(
        ctx,
        scope,
        apiUrl(ctx, 'pis', `/domestic-payment-consents/${encodeURIComponent(pending.consentId)}`),
        cc,
        'payment lookup: consent',
      )
      const status = jsonMember(res.json, 'Data', 'Status')
      consentStatus = res.status === 200 && typeof status === 'string' ? status : undefined
      facts.push(
        consentStatus
          ? `the consent ${pending.consentId} is ${consentStatus}`
          : `reading the consent answered ${res.status}`,
      )
    } catch (err) {
      facts.push(`reading the consent failed too (${isAppError(err) ? err.code : String(err)})`)
    }
    if (pending.domesticPaymentId) {
      try {
        const res = await bearerGet(
          ctx,
          scope,
          apiUrl(ctx, 'pis', `/domestic-payments/${encodeURIComponent(pending.domesticPaymentId)}`),
          cc,
          'payment lookup: payment',
        )
        facts.push(
          res.status === 200
            ? `payment ${pending.domesticPaymentId} exists, status ${String(jsonMember(res.json, 'Data', 'Status'))}`
            : `reading payment ${pending.domesticPaymentId} answered ${res.status}`,
        )
      } catch (err) {
        facts.push(
          `reading payment ${pending.domesticPaymentId} failed too (${isAppError(err) ? err.code : String(err)})`,
        )
      }
    }
  }
  const paid = consentStatus === 'COND' || consentStatus === 'Consumed'
  const unpaid = consentStatus === 'AUTH' || consentStatus === 'Authorised'
  const found = facts.length
    ? facts.join('; ')
    : 'nothing could be looked up (no client-credentials token in this flow)'
  // A resend the bank refused keeps the bank's own code (OB_ERROR, HTTP_ERROR...); a lost answer is a reset.
  return new AppError(paid ? 'FLOW_CHECK_FAILED' : (refusal?.code ?? lostCode), {
    what: `${happened.replace(/\.+$/, '')}. The console looked the payment up: ${found}.`,
    cause: paid
      ? `The consent is spent, so the bank made a payment with it${pending.domesticPaymentId ? '' : ', but its answer (with the payment id) never arrived'}. No second payment was sent.`
      : unpaid
        ? `The consent is still authorised and unspent: the bank made no payment with it (no payment exists on consent ${pending.consentId}). No second payment was sent.`
        : 'Whether the bank made the payment is not known: it may exist. No second payment was sent.',
    fix: paid
      ? `Re-run this step: it sends the same request with the same x-idempotency-key (${pending.idempotencyKey}), and the bank answers the payment it made.`
      : `${refusal ? `${refusal.fix} Then re-run` : 'Re-run'} this step: it sends the same request with the same x-idempotency-key (${pending.idempotencyKey}), which cannot pay twice.`,
    details: {
      ...refusal?.details,
      consentId: pending.consentId,
      idempotencyKey: pending.idempotencyKey,
      ...(consentStatus ? { consentStatus } : {}),
      ...(pending.domesticPaymentId ? { domesticPaymentId: pending.domesticPaymentId } : {}),
    },
    ...(refusal?.problems ? { problems: refusal.problems } : {}),
  })
}
