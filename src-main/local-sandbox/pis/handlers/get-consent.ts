import type { Context } from 'koa'
import { requireAccessToken } from '../../resource/require-token.ts'
import { requireMutualTls } from '../http/request-checks.ts'
import type { PisDeps } from '../pis-deps.ts'
import { consentResponse } from '../responses/consent-response.ts'
import { ownedConsent } from './owned-resources.ts'
import { requireAccept } from '../../resource/media-types.ts'

/** GET /domestic-payment-consents/{ConsentId}: client-credentials token of the consent's client. */
export async function getConsent(ctx: Context, deps: PisDeps, consentId: string): Promise<void> {
  requireMutualTls(ctx)
  const token = await requireAccessToken(ctx, deps.auth.tokens, { grant: 'client_credentials', scope: 'payments' })
  requireAccept(ctx)
  const consent = await ownedConsent(deps, consentId, token.clientId)
  ctx.status = 200
  ctx.body = consentResponse({
    consent,
    payment: await deps.sandbox.store.paymentByConsent(consentId),
    psus: deps.sandbox.psus,
    baseUrl: deps.sandbox.addresses.baseUrl,
  })
}
