import type { Context } from 'koa'
import { ObApiError } from '../http/ob-error.ts'
import { createConsent } from './handlers/create-consent.ts'
import { createPayment } from './handlers/create-payment.ts'
import { fundsConfirmation } from './handlers/funds-confirmation.ts'
import { getConsent } from './handlers/get-consent.ts'
import { getPayment, getPaymentDetails } from './handlers/get-payment.ts'
import type { PisDeps } from './pis-deps.ts'
import { PIS_BASE_PATH } from './pis-paths.ts'

type Handler = (ctx: Context, deps: PisDeps, id: string) => Promise<void>

interface PisRoute {
  method: 'GET' | 'POST'
  /** Matches the path after the PIS base path; the one capture group, if any, is the resource id. */
  pattern: RegExp
  handle: Handler
}

const ID = '([^/]+)'

/** The PIS v4.0 domestic payment endpoints the sandbox serves. */
export const PIS_ROUTES: readonly PisRoute[] = [
  { method: 'POST', pattern: /^\/domestic-payment-consents$/, handle: (ctx, deps) => createConsent(ctx, deps) },
  { method: 'GET', pattern: new RegExp(`^/domestic-payment-consents/${ID}$`), handle: getConsent },
  {
    method: 'GET',
    pattern: new RegExp(`^/domestic-payment-consents/${ID}/funds-confirmation$`),
    handle: fundsConfirmation,
  },
  { method: 'POST', pattern: /^\/domestic-payments$/, handle: (ctx, deps) => createPayment(ctx, deps) },
  { method: 'GET', pattern: new RegExp(`^/domestic-payments/${ID}$`), handle: getPayment },
  { method: 'GET', pattern: new RegExp(`^/domestic-payments/${ID}/payment-details$`), handle: getPaymentDetails },
]

/** Whether `path` is under the PIS base path (the PIS middleware answers it, signing the response). */
export function isPisPath(path: string): boolean {
  return path === PIS_BASE_PATH || path.startsWith(`${PIS_BASE_PATH}/`)
}

function decodeId(raw: string): string {
  try {
    return decodeURIComponent(raw)
  } catch {
    return raw
  }
}

/**
 * Runs the handler for the request's method and path. A path the sandbox does not serve is 404; a
 * served path with another method is 405 with `Allow`.
 */
export async function dispatchPis(ctx: Context, deps: PisDeps): Promise<void> {
  const rest = ctx.path.slice(PIS_BASE_PATH.length)
  const matching = PIS_ROUTES.filter((r) => r.pattern.test(rest))
  if (matching.length === 0) {
    throw new ObApiError(404, {
      code: 'U011',
      message: `${ctx.method} ${ctx.path} is not served by the local sandbox's PIS v4.0: it implements domestic-payment-consents (+ /funds-confirmation) and domestic-payments (+ /payment-details) only`,
    })
  }
  const route = matching.find((r) => r.method === ctx.method)
  if (!route) {
    const allowed = [...new Set(matching.map((r) => r.method))].join(', ')
    throw new ObApiError(
      405,
      { code: 'U011', message: `${ctx.method} is not allowed on ${ctx.path}; allowed: ${allowed}` },
      { Allow: allowed },
    )
  }
  const id = route.pattern.exec(rest)?.[1]
  await route.handle(ctx, deps, id === undefined ? '' : decodeId(id))
}
