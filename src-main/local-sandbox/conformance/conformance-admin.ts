import Router from '@koa/router'
import type { Context, Middleware } from 'koa'
import type { ConformanceRecorder } from './recorder.ts'
import { CONFORMANCE_RULES } from './rules.ts'

export const CONFORMANCE_ADMIN_ENDPOINTS = [
  'GET /admin/conformance',
  'GET /admin/conformance?client_id={id}',
  'DELETE /admin/conformance',
  'DELETE /admin/conformance?client_id={id}',
] as const

function fail(ctx: Context, status: number, error: string, description: string): void {
  ctx.status = status
  ctx.body = { error, error_description: description }
}

/** `client_id` of the query: undefined when absent; 400 (and null) when repeated or empty. */
function clientIdOf(ctx: Context): string | undefined | null {
  const raw = ctx.query.client_id
  if (raw === undefined) return undefined
  if (Array.isArray(raw) || raw === '' || raw.length > 200) {
    fail(
      ctx,
      400,
      'invalid_request',
      'client_id must be given once, 1 to 200 characters: the client id, or cert:<x5t#S256> for requests no valid token named',
    )
    return null
  }
  return raw
}

/**
 * The conformance report's admin endpoint on the directory origin, beside `/admin/faults` (server TLS, no
 * client certificate, as the other admin endpoints): `GET /admin/conformance` lists the clients with a
 * record and the rules; `GET ?client_id=ID` is one client's report (404 when nothing was recorded for
 * it); `DELETE` clears every record, `DELETE ?client_id=ID` one.
 */
export function conformanceAdminRoutes(recorder: ConformanceRecorder, log: (line: string) => void): Middleware {
  const router = new Router()
  router.get('/admin/conformance', async (ctx) => {
    const clientId = clientIdOf(ctx)
    if (clientId === null) return
    if (clientId === undefined) {
      const { unattributed, evictedClients } = await recorder.counters()
      const clients = await recorder.clients()
      ctx.body = { clients, rules: CONFORMANCE_RULES, limits: recorder.limits, unattributed, evictedClients }
      return
    }
    const report = await recorder.report(clientId)
    if (!report) {
      const known = (await recorder.clients()).map((c) => c.clientId)
      const others = known.length ? `; clients with a record: ${known.slice(0, 10).join(', ')}` : ''
      const why = 'it made no AIS or PIS request since the sandbox started or the record was cleared'
      return fail(ctx, 404, 'not_found', `nothing is recorded for client "${clientId}": ${why}${others}`)
    }
    // The report as it travels (plumbing/conformance-report.ts), which the sandbox's report type extends.
    ctx.body = report
  })
  router.delete('/admin/conformance', async (ctx) => {
    const clientId = clientIdOf(ctx)
    if (clientId === null) return
    const removed = await recorder.clear(clientId)
    if (removed)
      log(`conformance: ${clientId === undefined ? `${removed} record(s)` : `the record of ${clientId}`} cleared`)
    ctx.body = { removed }
  })
  const routes = router.routes() as Middleware
  return async (ctx, next) => {
    if (!/^\/admin\/conformance(\/|$)/.test(ctx.path)) return next()
    ctx.set('Cache-Control', 'no-store')
    if (ctx.path !== '/admin/conformance')
      return fail(ctx, 404, 'not_found', 'the conformance report is GET or DELETE /admin/conformance[?client_id=ID]')
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD' && ctx.method !== 'DELETE') {
      ctx.set('Allow', 'GET, DELETE')
      return fail(
        ctx,
        405,
        'invalid_request',
        `${ctx.method} is not allowed on /admin/conformance; GET reads the report, DELETE clears it`,
      )
    }
    await routes(ctx, next)
  }
}
