import type { Context } from 'koa'
import { requireAccessToken } from '../../resource/require-token.ts'
import { requireMutualTls } from '../http/request-checks.ts'
import type { PisDeps } from '../pis-deps.ts'
import { paymentDetailsResponse, paymentResponse } from '../responses/payment-response.ts'
import { ownedPayment } from './owned-resources.ts'
import { requireAccept } from '../../resource/media-types.ts'

async function lookUp(ctx: Context, deps: PisDeps, paymentId: string) {
  requireMutualTls(ctx)
  const token = await requireAccessToken(ctx, deps.auth.tokens, { grant: 'client_credentials', scope: 'payments' })
  requireAccept(ctx)
  return ownedPayment(deps, paymentId, token.clientId)
}

/** GET /domestic-payments/{DomesticPaymentId}: client-credentials token of the payment's client; status per the sandbox clock. */
export async function getPayment(ctx: Context, deps: PisDeps, paymentId: string): Promise<void> {
  const payment = await lookUp(ctx, deps, paymentId)
  ctx.status = 200
  ctx.body = paymentResponse({
    payment,
    nowMs: deps.sandbox.clock.nowMs(),
    psus: deps.sandbox.psus,
    baseUrl: deps.sandbox.addresses.baseUrl,
  })
}

/** GET /domestic-payments/{DomesticPaymentId}/payment-details: the payment's status history. */
export async function getPaymentDetails(ctx: Context, deps: PisDeps, paymentId: string): Promise<void> {
  const payment = await lookUp(ctx, deps, paymentId)
  ctx.status = 200
  ctx.body = paymentDetailsResponse({
    payment,
    nowMs: deps.sandbox.clock.nowMs(),
    baseUrl: deps.sandbox.addresses.baseUrl,
  })
}
