import type { Context, Middleware } from 'koa'
import type { AuthorisationServer } from '../auth/types.ts'
import type { SandboxContext } from '../context.ts'
import { RouteTable } from '../http/route-table.ts'
import { requireAccept } from '../resource/media-types.ts'
import type { AisBank } from './ais-bank.ts'
import { PsuAbsentLimiter, type PsuAbsentQuota } from './access/psu-absent-limiter.ts'
import { accountRoutes } from './routes/account-routes.ts'
import { consentRoutes } from './routes/consent-routes.ts'
import { TransactionPageCache } from './routes/page-cache.ts'
import { resourceRoutes } from './routes/resource-routes.ts'
import { AIS_BASE_PATH, type AisDeps, type Route } from './routes/route-kit.ts'
import { statementRoutes } from './routes/statement-routes.ts'
import { transactionRoutes } from './routes/transaction-routes.ts'

export { AIS_BASE_PATH } from './routes/route-kit.ts'

/** Every AIS endpoint the sandbox serves. */
const ROUTES = new RouteTable<Route>(
  AIS_BASE_PATH,
  [...consentRoutes, ...accountRoutes, ...transactionRoutes, ...statementRoutes, ...resourceRoutes],
  (_method, path) =>
    `no AIS endpoint ${path.slice(AIS_BASE_PATH.length) || '/'} under ${AIS_BASE_PATH}; see docs/local-sandbox/ais.md for the endpoints the sandbox serves`,
)

/** The parts of the sandbox context AIS uses. */
export type AisSandbox = Pick<SandboxContext, 'addresses' | 'clock' | 'psus' | 'consents' | 'store' | 'layout' | 'log'>

export interface AisRoutesOptions {
  /** The bank whose accounts are served (`await AisBank.forSandbox(ctx)`; PIS posts its payments on the same one). */
  bank: AisBank
  /** What the four PSU-absent accesses a day count (see PsuAbsentQuota); default `per-endpoint`. */
  psuAbsentQuota?: PsuAbsentQuota
  /**
   * On a store other instances share: posts the payments they made on these accounts' ledgers before AIS
   * reads them (a payment made through this instance's PIS is posted at once; one made through another is not).
   */
  syncLedgers?: (accountIds: readonly string[]) => Promise<void>
}

/**
 * The AIS v4.0 resource server under `{base_url}/open-banking/v4.0/aisp`: account access consents and
 * every data endpoint. For a path under the base path: 404 when no endpoint has that path, 405 (with
 * `Allow`) for a method the path does not have, 406 for an `Accept` the endpoint cannot produce, then the
 * route. Other paths pass to `next()`.
 */
export function aisRoutes(
  ctx: AisSandbox,
  auth: Pick<AuthorisationServer, 'tokens' | 'clients'>,
  options: AisRoutesOptions,
): Middleware {
  const { bank } = options
  const deps: AisDeps = {
    sandbox: ctx,
    tokens: auth.tokens,
    bank,
    limiter: new PsuAbsentLimiter(ctx.store, ctx.clock, options.psuAbsentQuota),
    pages: new TransactionPageCache(),
    ...(options.syncLedgers ? { syncLedgers: options.syncLedgers } : {}),
  }
  // Not async: a refusal thrown here reaches koa-compose, which turns it into the rejection an await would.
  return (c: Context, next) => {
    const path = c.path
    if (!ROUTES.covers(path)) return next()
    const { route, params } = ROUTES.resolve(c.method, path)
    requireAccept(c, route.produces)
    return route.handler(c, params, deps)
  }
}
