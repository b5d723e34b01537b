import type { Context, Middleware } from 'koa'
import type { AuthorisationServer } from '../auth/types.ts'
import type { SandboxContext } from '../context.ts'
import { ObApiError, obErrorBody } from '../http/ob-error.ts'
import { setHeaders } from '../http/header-value.ts'
import { AisBank } from '../ais/ais-bank.ts'
import { aisAvailableBalances } from './funds/ais-available-balance.ts'
import { fundsLessPayments } from './funds/available-funds.ts'
import { seedOpeningBalances } from './funds/seed-available-balance.ts'
import { SANDBOX_ASPSP_ORG_ID } from './jws/ob-jws-header.ts'
import { signDetachedJws } from './jws/sign-detached-jws.ts'
import type { PisDeps } from './pis-deps.ts'
import { PIS_ROUTES, dispatchPis } from './pis-router.ts'
import { postStoredPayments } from './posting/post-payment.ts'

/** Writes an object body as JSON and signs those exact bytes in `x-jws-signature` with the sandbox's key. */
async function sendSigned(koaCtx: Context, sandbox: SandboxContext): Promise<void> {
  const body = koaCtx.body
  if (body === null || body === undefined || typeof body !== 'object' || Buffer.isBuffer(body)) return
  const text = JSON.stringify(body)
  koaCtx.body = text
  koaCtx.type = 'application/json'
  // Wall time, like the ID tokens oidc-provider signs: a TPP checks "iat in the past" with its own
  // clock, and a sandbox clock moved forward (to age consents or settle payments) must not make
  // every response signature look issued in the future.
  const signature = await signDetachedJws(Buffer.from(text, 'utf8'), sandbox.signingKey, {
    iss: SANDBOX_ASPSP_ORG_ID,
    iat: Math.floor(Date.now() / 1000),
  })
  koaCtx.set('x-jws-signature', signature)
}

export interface PisRoutesOptions {
  /**
   * The bank whose AIS ledgers accepted payments are posted on: the one the AIS routes serve, so a
   * payment shows in AIS. Default: a bank of its own (tests of PIS alone).
   */
  bank?: AisBank
}

/**
 * The PIS v4.0 resource server (domestic payments) on `{base_url}/open-banking/v4.0/pisp`: consents,
 * funds confirmation, payments, payment details; `x-jws-signature` verified on requests and set on
 * every response with a body (errors included); idempotency keys; payments and keys persisted under
 * the data directory's `state/`. Accepted payments are transactions of their debtor account in AIS:
 * the stored ones are posted on the bank's ledgers here, at start, new ones as they are made. Calls
 * `next()` for paths outside PIS.
 */
export async function pisRoutes(
  ctx: SandboxContext,
  auth: Pick<AuthorisationServer, 'tokens' | 'clients'>,
  options: PisRoutesOptions = {},
): Promise<Middleware> {
  const bank = options.bank ?? (await AisBank.forSandbox(ctx))
  postStoredPayments(bank, await ctx.store.payments())
  const deps: PisDeps = {
    sandbox: ctx,
    auth,
    // The balance AIS publishes (ITAV at sandbox time, the payments posted on it included); the seed
    // table less the payments for accounts AIS does not hold.
    funds: aisAvailableBalances(bank, ctx.clock, fundsLessPayments(seedOpeningBalances(ctx.psus), ctx.store)),
    bank,
  }
  return async (koaCtx, next) => {
    if (!PIS_ROUTES.covers(koaCtx.path)) return next()
    try {
      await dispatchPis(koaCtx, deps)
    } catch (err) {
      // 401 (no body) and unexpected errors go to the shared error middleware.
      if (!(err instanceof ObApiError)) throw err
      koaCtx.status = err.status
      setHeaders(koaCtx, err.headers)
      koaCtx.body = obErrorBody(err.status, err.details, String(koaCtx.response.get('x-fapi-interaction-id') || ''))
    }
    await sendSigned(koaCtx, ctx)
  }
}
