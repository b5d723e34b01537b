import { AppError } from '../../core/app-error.ts'
import { readBankAnswer } from '../common/bank-answer.ts'
import { apiUrl, bearerGet } from '../common/bank-requests.ts'
import { CLIENT_CREDENTIALS_STEP } from '../common/tokens.ts'
import type { StepDefinition } from '../step-machine.ts'
import { PAYMENT_ANSWER } from './payment-step.ts'
import { PIS_STEP_TEXT, PIS_STEPS, type PisFlowContext, type PaymentOutput } from './pis-context.ts'
import { responseSignatureChecks } from './signed-requests.ts'

/** A status outside the v4.0 list: the bank's answer, not a stage of settlement; polling it would never end. */
function unknownStatus(paymentId: string, status: string, seen: string[], exchangeId: string): AppError {
  return new AppError('PAYMENT_STATUS_UNKNOWN', {
    what: `Reading the payment status: payment ${paymentId} is ${JSON.stringify(status)}, which is not a payment status of Open Banking v4.0; polling stopped at once.`,
    cause: `The bank's API answered a Status outside the v4.0 list (${[...PAYMENT_STATUSES].join(', ')}), so whether the payment settled cannot be told from it. Statuses seen: ${seen.join(' → ')}.`,
    fix: "Report the answer to the bank (the exchange log holds it); ask the bank what the payment's status is before paying again.",
    details: { exchangeId, status, domesticPaymentId: paymentId },
  })
}

/** Final payment statuses: the status step stops on these. */
export const FINAL_PAYMENT_STATUSES = new Set(['ACSC', 'ACCC', 'ACWC', 'ACWP', 'RJCT', 'BLCK'])

/**
 * Every status of a domestic payment in Open Banking v4.0 (`OBWriteDomesticResponse5.Data.Status` of
 * payment-initiation-openapi.json): any other is no step of the payment's life, and polling it cannot end.
 */
export const PAYMENT_STATUSES = new Set([
  'RCVD',
  'PDNG',
  'ACTC',
  'PATC',
  'ACCP',
  'ACFC',
  'ACSP',
  'ACWC',
  'ACSC',
  'ACWP',
  'ACCC',
  'BLCK',
  'RJCT',
])

/** Step: the payment's status, polled with the client-credentials token until final or `maxWaitMs` passed. */
export function statusStep(): StepDefinition<PisFlowContext, PaymentOutput> {
  return {
    ...PIS_STEP_TEXT.status,
    requires: [PIS_STEPS.payment, CLIENT_CREDENTIALS_STEP],
    async run(ctx, scope) {
      const { domesticPaymentId } = scope.output(PIS_STEPS.payment)
      const cc = scope.output(CLIENT_CREDENTIALS_STEP).accessToken
      const seen: string[] = []
      const started = Date.now()
      for (;;) {
        const res = await bearerGet(
          ctx,
          scope,
          apiUrl(ctx, 'pis', `/domestic-payments/${encodeURIComponent(domesticPaymentId)}`),
          cc,
          'payment status',
        )
        const status = String(
          readBankAnswer(res, {
            what: 'Reading the payment status',
            status: 200,
            shape: PAYMENT_ANSWER,
            fix: 'Use a client-credentials token of the client that made the payment.',
          }).Data.Status,
        )
        if (seen.at(-1) !== status) seen.push(status)
        if (!PAYMENT_STATUSES.has(status)) throw unknownStatus(domesticPaymentId, status, seen, res.exchangeId)
        if (FINAL_PAYMENT_STATUSES.has(status)) {
          return {
            output: { domesticPaymentId, status, history: seen },
            summary: `${status} (${seen.join(' → ')})`,
            checks: [
              {
                name: 'final status',
                pass: status !== 'RJCT' && status !== 'BLCK',
                expected: 'ACSC',
                actual: status,
                hint: 'See the StatusReason in the payment resource.',
              },
              // The answer that ends the step is signed like every PIS answer with a body.
              ...(await responseSignatureChecks(ctx, scope, res)),
            ],
          }
        }
        if (Date.now() - started >= ctx.pis.maxWaitMs) {
          throw new AppError('TIMEOUT', {
            what: `The payment stayed ${status} for ${Math.round(ctx.pis.maxWaitMs / 1000)} s.`,
            cause: `Statuses seen: ${seen.join(' → ')}. The bank has not settled it yet.`,
            fix: 'Re-run this step later; in the local sandbox, move its clock forward.',
          })
        }
        await ctx.pis.sleep(ctx.pis.pollIntervalMs)
      }
    },
  }
}
