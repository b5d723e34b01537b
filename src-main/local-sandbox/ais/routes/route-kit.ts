import type { Context } from 'koa'
import type { AccessTokenVerifier } from '../../auth/types.ts'
import type { SandboxContext } from '../../context.ts'
import type { AisBank } from '../ais-bank.ts'
import type { PsuAbsentLimiter } from '../access/psu-absent-limiter.ts'
import type { TransactionPageCache } from './page-cache.ts'
import type { TableRoute } from '../../http/route-table.ts'

/** The base path of AIS v4.0 on `{base_url}`. */
export const AIS_BASE_PATH = '/open-banking/v4.0/aisp'

/** What every AIS route handler uses. */
export interface AisDeps {
  sandbox: Pick<SandboxContext, 'addresses' | 'clock' | 'psus' | 'consents'>
  tokens: AccessTokenVerifier
  bank: AisBank
  limiter: PsuAbsentLimiter
  /** Serialised transactions pages, kept while they stay right. */
  pages: TransactionPageCache
  /**
   * Brings the ledgers of these accounts up to date before they are read (a store shared with other
   * instances: payments they made); absent, the ledgers are this process's own (see AisRoutesOptions).
   */
  syncLedgers?: (accountIds: readonly string[]) => Promise<void>
}

export type Handler = (ctx: Context, params: Readonly<Record<string, string>>, deps: AisDeps) => Promise<void> | void

export interface Route extends TableRoute {
  /** Media type the route produces (for the Accept check); JSON unless stated. */
  produces?: string
  handler: Handler
}

/** The request's own URL on `{base_url}` (with its query string): `Links.Self`. */
export function selfLink(ctx: Context, deps: AisDeps): string {
  return `${deps.sandbox.addresses.baseUrl}${ctx.path}${ctx.querystring ? `?${ctx.querystring}` : ''}`
}

/** Sends a v4.0 read response: `Data`, `Links.Self`, `Meta` (one page unless stated). */
export function sendRead(
  ctx: Context,
  deps: AisDeps,
  data: Record<string, unknown>,
  meta: Record<string, unknown> = { TotalPages: 1 },
  links?: Record<string, string>,
): void {
  ctx.status = 200
  ctx.body = { Data: data, Links: links ?? { Self: selfLink(ctx, deps) }, Meta: meta }
}
