import type { Context } from 'koa'
import { RouteTable, type TableRoute } from '../http/route-table.ts'
import { createConsent } from './handlers/create-consent.ts'
import { createPayment } from './handlers/create-payment.ts'
import { fundsConfirmation } from './handlers/funds-confirmation.ts'
import { getConsent } from './handlers/get-consent.ts'
import { getPayment, getPaymentDetails } from './handlers/get-payment.ts'
import type { PisDeps } from './pis-deps.ts'
import { PIS_BASE_PATH } from './pis-paths.ts'

type Handler = (ctx: Context, deps: PisDeps, id: string) => Promise<void>

interface PisRoute extends TableRoute {
  handle: Handler
}

/** The PIS v4.0 domestic payment endpoints the sandbox serves. */
export const PIS_ROUTES = new RouteTable<PisRoute>(
  PIS_BASE_PATH,
  [
    { method: 'POST', path: '/domestic-payment-consents', handle: (ctx, deps) => createConsent(ctx, deps) },
    { method: 'GET', path: '/domestic-payment-consents/{ConsentId}', handle: getConsent },
    { method: 'GET', path: '/domestic-payment-consents/{ConsentId}/funds-confirmation', handle: fundsConfirmation },
    { method: 'POST', path: '/domestic-payments', handle: (ctx, deps) => createPayment(ctx, deps) },
    { method: 'GET', path: '/domestic-payments/{DomesticPaymentId}', handle: getPayment },
    { method: 'GET', path: '/domestic-payments/{DomesticPaymentId}/payment-details', handle: getPaymentDetails },
  ],
  (method, path) =>
    `${method} ${path} is not served by the local sandbox's PIS v4.0: it implements domestic-payment-consents (+ /funds-confirmation) and domestic-payments (+ /payment-details) only`,
)

/**
 * Runs the handler for the request's method and path (the resource id, if the path has one, decoded). A
 * path the sandbox does not serve is 404; a served path with another method is 405 with `Allow`.
 */
export async function dispatchPis(ctx: Context, deps: PisDeps): Promise<void> {
  const { route, params } = PIS_ROUTES.resolve(ctx.method, ctx.path)
  await route.handle(ctx, deps, params.ConsentId ?? params.DomesticPaymentId ?? '')
}
