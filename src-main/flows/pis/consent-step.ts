import { NON_EMPTY_STRING, obAnswerShape } from '../common/bank-answer.ts'
import { readCreatedConsent } from '../common/consent-journey.ts'
import { DISCOVERY_STEP } from '../common/discovery.ts'
import { CLIENT_CREDENTIALS_STEP } from '../common/tokens.ts'
import type { OBWriteDomesticConsentResponse5 } from '../../plumbing/ob-wire/payment-initiation.ts'
import type { StepDefinition } from '../step-machine.ts'
import { PIS_STEP_TEXT, type PisFlowContext, type PisConsentOutput } from './pis-context.ts'
import { responseSignatureChecks, signedPost } from './signed-requests.ts'

/** How the step reads the bank's answer: the consent it created, or the error the bank gave. */
const CONSENT_ANSWER = {
  what: 'Creating the payment consent',
  shape: obAnswerShape<OBWriteDomesticConsentResponse5>(
    'a domestic payment consent (OBWriteDomesticConsentResponse5)',
    {
      type: 'object',
      required: ['ConsentId', 'Status', 'Initiation'],
      properties: { ConsentId: NON_EMPTY_STRING, Status: NON_EMPTY_STRING, Initiation: { type: 'object' } },
    },
  ),
  fix: "Check the Initiation fields named in the error and that the signing key's kid is on the software statement's JWKS.",
}

/** Step: the domestic payment consent, signed, with the flow's Initiation and Risk. */
export function consentStep(): StepDefinition<PisFlowContext, PisConsentOutput> {
  return {
    ...PIS_STEP_TEXT.consent,
    requires: [DISCOVERY_STEP, CLIENT_CREDENTIALS_STEP],
    async run(ctx, scope) {
      const cc = scope.output(CLIENT_CREDENTIALS_STEP)
      const { initiation, risk } = ctx.pis.input
      const { res, idempotencyKey } = await signedPost(
        ctx,
        scope,
        '/domestic-payment-consents',
        cc.accessToken,
        { Data: { Initiation: initiation }, Risk: risk },
        'domestic payment consent',
      )
      const { Data, consentId, summary, statusCheck } = readCreatedConsent(res, CONSENT_ANSWER)
      return {
        output: { consentId, idempotencyKey, initiation: Data.Initiation },
        summary,
        checks: [statusCheck, ...(await responseSignatureChecks(ctx, scope, res))],
      }
    },
  }
}
