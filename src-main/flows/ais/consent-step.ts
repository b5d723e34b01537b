import { AppError } from '../../core/app-error.ts'
import { NON_EMPTY_STRING, obAnswerShape } from '../common/bank-answer.ts'
import { apiUrl, bearerPost } from '../common/bank-requests.ts'
import { readCreatedConsent } from '../common/consent-journey.ts'
import { CLIENT_CREDENTIALS_STEP } from '../common/tokens.ts'
import type { OBReadConsentResponse1 } from '../../plumbing/ob-wire/account-info.ts'
import type { StepDefinition } from '../step-machine.ts'
import { AIS_STEP_TEXT, type AisFlowContext, type AisConsentOutput } from './ais-context.ts'
import { checkPermissions } from '../../contract/ais-permissions.ts'

/** How the step reads the bank's answer: the consent it created, or the error the bank gave. */
const CONSENT_ANSWER = {
  what: 'Creating the account access consent',
  shape: obAnswerShape<OBReadConsentResponse1>('an account access consent (OBReadConsentResponse1)', {
    type: 'object',
    required: ['ConsentId', 'Status'],
    properties: {
      ConsentId: NON_EMPTY_STRING,
      Status: NON_EMPTY_STRING,
      Permissions: { type: 'array', items: { type: 'string' } },
    },
  }),
  fix: 'Check the permissions and dates against the v4.0 rules in the error, and that the token has the accounts scope.',
}

/** Step: the account access consent, refused before it is sent when its permissions break the v4.0 rules. */
export function consentStep(): StepDefinition<AisFlowContext, AisConsentOutput> {
  return {
    ...AIS_STEP_TEXT.consent,
    requires: [CLIENT_CREDENTIALS_STEP],
    async run(ctx, scope) {
      const { input } = ctx.ais
      const problems = checkPermissions(input.permissions).filter((c) => !c.pass)
      if (problems.length) {
        throw new AppError('INVALID_INPUT', {
          what: 'The permissions break the v4.0 rules, so the bank would reject the consent.',
          cause: problems.map((p) => `${p.name}: ${p.actual}`).join('; '),
          fix: problems[0]!.hint ?? 'Fix the permissions.',
        })
      }
      const body = JSON.stringify({
        Data: {
          Permissions: input.permissions,
          ...(input.expirationDateTime ? { ExpirationDateTime: input.expirationDateTime } : {}),
          ...(input.transactionFromDateTime ? { TransactionFromDateTime: input.transactionFromDateTime } : {}),
          ...(input.transactionToDateTime ? { TransactionToDateTime: input.transactionToDateTime } : {}),
        },
        Risk: {},
      })
      const cc = scope.output(CLIENT_CREDENTIALS_STEP)
      const url = apiUrl(ctx, 'ais', '/account-access-consents')
      const res = await bearerPost(ctx, scope, url, cc.accessToken, body, 'account access consent')
      const { Data, consentId, summary, statusCheck } = readCreatedConsent(res, CONSENT_ANSWER)
      return {
        output: {
          consentId,
          status: Data.Status,
          ...(typeof Data.ExpirationDateTime === 'string' ? { expirationDateTime: Data.ExpirationDateTime } : {}),
        },
        summary,
        checks: [statusCheck],
      }
    },
  }
}
