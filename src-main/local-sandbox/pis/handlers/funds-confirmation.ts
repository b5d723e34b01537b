import type { Context } from 'koa'
import { ObApiError } from '../../http/ob-error.ts'
import { requireAccessToken } from '../../resource/require-token.ts'
import { hasFundsFor } from '../funds/available-funds.ts'
import { requireMutualTls } from '../http/request-checks.ts'
import type { PisDeps } from '../pis-deps.ts'
import { fundsConfirmationResponse } from '../responses/consent-response.ts'
import { consentNotAuthorised } from './consent-status-error.ts'
import { ownedConsent } from './owned-resources.ts'
import { requireTokenForConsent } from './token-for-consent.ts'
import { checked } from '../../conformance/probe.ts'
import { requireAccept } from '../../resource/media-types.ts'

/**
 * GET /domestic-payment-consents/{ConsentId}/funds-confirmation: authorisation-code token issued for
 * this consent, consent `AUTH`. Compares the instructed amount with the debtor account's available
 * funds; the consent's status does not change.
 */
export async function fundsConfirmation(ctx: Context, deps: PisDeps, consentId: string): Promise<void> {
  requireMutualTls(ctx)
  const token = await requireAccessToken(ctx, deps.auth.tokens, { grant: 'authorization_code', scope: 'payments' })
  requireAccept(ctx)
  const consent = await ownedConsent(deps, consentId, token.clientId)
  checked(ctx, 'token.use', () => requireTokenForConsent(token, consentId))
  checked(ctx, 'consent.status', () => {
    if (consent.status !== 'AUTH') throw consentNotAuthorised(consent, 'funds confirmation')
  })
  if (!consent.debtorAccountId) {
    throw new ObApiError(400, {
      code: 'U009',
      message: `consent ${consentId} is AUTH but no debtor account was recorded at authorisation; authorise a new consent`,
    })
  }
  const amount = consent.data.Initiation.InstructedAmount.Amount
  ctx.status = 200
  ctx.body = fundsConfirmationResponse({
    consentId,
    available: await hasFundsFor(consent.debtorAccountId, amount, deps.funds),
    atMs: deps.sandbox.clock.nowMs(),
    baseUrl: deps.sandbox.addresses.baseUrl,
  })
}
