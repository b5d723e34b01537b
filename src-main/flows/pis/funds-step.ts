import { CODE_EXCHANGE_STEP } from '../common/authorisation.ts'
import { obAnswerShape, readBankAnswer } from '../common/bank-answer.ts'
import { apiUrl, bearerGet } from '../common/bank-requests.ts'
import { authorisedConsent } from '../common/consent-journey.ts'
import type { OBWriteFundsConfirmationResponse1 } from '../../plumbing/ob-wire/payment-initiation.ts'
import type { StepDefinition } from '../step-machine.ts'
import { PIS_STEP_TEXT, PIS_STEPS, type PisFlowContext } from './pis-context.ts'
import { responseSignatureChecks } from './signed-requests.ts'

/** The part of the funds confirmation the step reads. */
const FUNDS_ANSWER = obAnswerShape<OBWriteFundsConfirmationResponse1, 'FundsAvailableResult'>(
  'a funds confirmation (OBWriteFundsConfirmationResponse1)',
  {
    type: 'object',
    required: ['FundsAvailableResult'],
    properties: {
      FundsAvailableResult: {
        type: 'object',
        required: ['FundsAvailable'],
        properties: { FundsAvailable: { type: 'boolean' } },
      },
    },
  },
)

/** Step: whether the PSU's account can cover the payment, asked on the authorised consent. */
export function fundsStep(): StepDefinition<PisFlowContext, { available: boolean }> {
  return {
    ...PIS_STEP_TEXT.funds,
    requires: [PIS_STEPS.consent, CODE_EXCHANGE_STEP],
    async run(ctx, scope) {
      const consent = authorisedConsent(scope, PIS_STEPS.consent)
      const url = apiUrl(
        ctx,
        'pis',
        `/domestic-payment-consents/${encodeURIComponent(consent.consentId)}/funds-confirmation`,
      )
      const res = await bearerGet(ctx, scope, url, consent.accessToken, 'funds confirmation')
      const { Data } = readBankAnswer(res, {
        what: 'Confirming funds',
        status: 200,
        shape: FUNDS_ANSWER,
        fix: 'The consent must be authorised (AUTH) and the token the one from the code exchange.',
      })
      const available = Data.FundsAvailableResult.FundsAvailable === true
      return {
        output: { available },
        summary: available ? 'funds available' : 'funds NOT available',
        checks: [
          {
            name: 'funds available',
            pass: available,
            expected: 'true',
            actual: String(available),
            hint: 'Pay a smaller amount, or from another account.',
          },
          ...(await responseSignatureChecks(ctx, scope, res)),
        ],
      }
    },
  }
}
