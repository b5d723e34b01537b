import type { Context, Middleware } from 'koa'
import type { AuthorisationServer } from '../auth/types.ts'
import type { SandboxContext } from '../context.ts'
import { ObApiError } from '../http/ob-error.ts'
import type { AisBank } from './ais-bank.ts'
import { PsuAbsentLimiter, type PsuAbsentQuota } from './access/psu-absent-limiter.ts'
import { requireAccept } from './query/http-rules.ts'
import { accountRoutes } from './routes/account-routes.ts'
import { consentRoutes } from './routes/consent-routes.ts'
import { TransactionPageCache } from './routes/page-cache.ts'
import { resourceRoutes } from './routes/resource-routes.ts'
import { AIS_BASE_PATH, type AisDeps, type Route } from './routes/route-kit.ts'
import { statementRoutes } from './routes/statement-routes.ts'
import { transactionRoutes } from './routes/transaction-routes.ts'

export { AIS_BASE_PATH } from './routes/route-kit.ts'

interface CompiledRoute extends Route {
  regex: RegExp
  keys: string[]
}

const ROUTES: CompiledRoute[] = [
  ...consentRoutes,
  ...accountRoutes,
  ...transactionRoutes,
  ...statementRoutes,
  ...resourceRoutes,
].map((r) => {
  const keys: string[] = []
  const source = r.path.replace(/\{(\w+)\}/g, (_m, key: string) => {
    keys.push(key)
    return '([^/]+)'
  })
  return { ...r, regex: new RegExp(`^${source}$`), keys }
})

function decodeParam(name: string, raw: string): string {
  let value: string
  try {
    value = decodeURIComponent(raw)
  } catch {
    throw new ObApiError(400, {
      code: 'U002',
      path: name,
      message: `${name} "${raw.slice(0, 60)}" is not valid percent-encoding`,
    })
  }
  if (value.length > 128)
    throw new ObApiError(400, {
      code: 'U002',
      path: name,
      message: `${name} is ${value.length} characters long; identifiers are at most 128 characters`,
    })
  return value
}

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
  return async (c: Context, next) => {
    if (c.path !== AIS_BASE_PATH && !c.path.startsWith(`${AIS_BASE_PATH}/`)) return next()
    const rest = c.path.slice(AIS_BASE_PATH.length)
    const matching: Array<{ r: (typeof ROUTES)[number]; m: RegExpExecArray }> = []
    for (const r of ROUTES) {
      const m = r.regex.exec(rest)
      if (m) matching.push({ r, m })
    }
    if (!matching.length) {
      throw new ObApiError(404, {
        code: 'U011',
        message: `no AIS endpoint ${rest || '/'} under ${AIS_BASE_PATH}; see docs/local-sandbox/ais.md for the endpoints the sandbox serves`,
      })
    }
    const hit = matching.find((x) => x.r.method === c.method)
    if (!hit) {
      const allow = [...new Set(matching.map((x) => x.r.method))].join(', ')
      throw new ObApiError(
        405,
        { code: 'U002', message: `${c.method} is not allowed on ${c.path}; allowed: ${allow}` },
        { Allow: allow },
      )
    }
    requireAccept(c, hit.r.produces)
    const params: Record<string, string> = {}
    hit.r.keys.forEach((key, i) => {
      params[key] = decodeParam(key, hit.m[i + 1]!)
    })
    await hit.r.handler(c, params, deps)
  }
}
