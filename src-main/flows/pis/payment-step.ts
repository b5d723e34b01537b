import { randomUUID } from 'node:crypto'
import { isAppError } from '../../core/app-error.ts'
import { CODE_EXCHANGE_STEP } from '../common/authorisation.ts'
import { NON_EMPTY_STRING, obAnswerShape, readBankAnswer } from '../common/bank-answer.ts'
import { authorisedConsent } from '../common/consent-journey.ts'
import type { FlowResponse } from '../flow-context.ts'
import type { StepDefinition } from '../step-machine.ts'
import { LOST_ANSWER, lookUpPayment } from './payment-lookup.ts'
import {
  PIS_STEP_TEXT,
  PIS_STEPS,
  type PendingPayment,
  type PisFlowContext,
  type PaymentOutput,
} from './pis-context.ts'
import { responseSignatureChecks, signedPost } from './signed-requests.ts'
import { bankId } from '../common/bank-id.ts'
import type { OBWriteDomesticResponse5 } from '../../plumbing/ob-wire/payment-initiation.ts'

/** The part of a domestic payment the payment and status steps read. */
export const PAYMENT_ANSWER = obAnswerShape<OBWriteDomesticResponse5>('a domestic payment (OBWriteDomesticResponse5)', {
  type: 'object',
  required: ['DomesticPaymentId', 'Status'],
  properties: { DomesticPaymentId: NON_EMPTY_STRING, ConsentId: { type: 'string' }, Status: NON_EMPTY_STRING },
})

/**
 * Step: the domestic payment, stored with the flow before it is first sent. A lost answer, a 5xx or 429 after
 * the client's tries, or a resend the bank refused, is looked up (`payment-lookup.ts`) and never sent as a
 * second payment.
 */
export function paymentStep(): StepDefinition<PisFlowContext, PaymentOutput> {
  return {
    ...PIS_STEP_TEXT.payment,
    requires: [PIS_STEPS.consent, CODE_EXCHANGE_STEP],
    async run(ctx, scope) {
      const { consentId, accessToken } = authorisedConsent(scope, PIS_STEPS.consent)
      // Stored with the flow before the first send; a re-run for the same consent sends it again as it was.
      const earlier = ctx.pis.payment?.consentId === consentId ? ctx.pis.payment : undefined
      const pending: PendingPayment = earlier ?? {
        consentId,
        idempotencyKey: randomUUID(),
        body: JSON.stringify({
          Data: { ConsentId: consentId, Initiation: ctx.pis.input.initiation },
          Risk: ctx.pis.input.risk,
        }),
      }
      ctx.pis.payment = pending
      let res: FlowResponse
      try {
        // Every send of this payment is retried by the client on a lost answer, with this same key.
        ;({ res } = await signedPost(
          ctx,
          scope,
          '/domestic-payments',
          accessToken,
          undefined,
          earlier ? 'domestic payment (sent again with its first idempotency key)' : 'domestic payment',
          pending,
        ))
      } catch (err) {
        if (!isAppError(err)) throw err
        if (typeof err.details?.exchangeId === 'string') scope.exchange(err.details.exchangeId)
        // A 5xx or 429 the client's retries ended on (a Retry-After too long to wait): the bank's own answer.
        const status = err.details?.status
        if (typeof status === 'number' && (status >= 500 || status === 429))
          throw await lookUpPayment(ctx, scope, pending, `${err.what}: ${err.cause}`, err)
        if (!LOST_ANSWER.has(err.code)) throw err
        const lost = `The answer to the payment was lost (${err.code}: ${err.what}; ${err.cause})`
        throw await lookUpPayment(ctx, scope, pending, lost, undefined, err.code)
      }
      let Data: OBWriteDomesticResponse5['Data']
      try {
        ;({ Data } = readBankAnswer(res, {
          what: earlier ? 'Sending the payment again with its first idempotency key' : 'Submitting the payment',
          status: 201,
          shape: PAYMENT_ANSWER,
          fix: "The Initiation and Risk must equal the consent's, and the consent must be AUTH (not yet used).",
        }))
      } catch (err) {
        // A resend refused (the key expired, the consent changed), or a failure or throttling on the bank's
        // side after the client's tries (the payment may have been made by one of them): say what the bank
        // has, never pay again.
        const banksSide = res.status >= 500 || res.status === 429
        if (isAppError(err) && (earlier || banksSide))
          throw await lookUpPayment(ctx, scope, pending, `${err.what} ${err.cause}`, err)
        throw err
      }
      const paymentId = bankId('DomesticPaymentId', Data.DomesticPaymentId, 'the new payment')
      pending.domesticPaymentId = paymentId
      return {
        output: { domesticPaymentId: paymentId, status: Data.Status },
        summary: `payment ${paymentId} ${Data.Status}`,
        checks: [
          {
            name: 'initial status',
            pass: ['RCVD', 'PDNG', 'ACTC', 'ACSP', 'ACSC'].includes(Data.Status),
            expected: 'RCVD (or later)',
            actual: String(Data.Status),
          },
          ...(await responseSignatureChecks(ctx, scope, res)),
        ],
      }
    },
  }
}
