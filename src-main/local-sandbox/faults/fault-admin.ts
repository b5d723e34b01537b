import Router from '@koa/router'
import type { Context, Middleware } from 'koa'
import { BodyTooLargeError, readRawBody } from '../http/body.ts'
import { FaultRuleError } from './fault-rules.ts'
import type { FaultSet } from './fault-set.ts'

const MAX_RULES_BODY = 256 * 1024

export const FAULT_ADMIN_ENDPOINTS = [
  'GET /admin/faults',
  'PUT /admin/faults',
  'POST /admin/faults',
  'DELETE /admin/faults',
  'DELETE /admin/faults/{id}',
] as const

function fail(ctx: Context, status: number, error: string, description: string, field?: string): void {
  ctx.status = status
  ctx.body = { error, error_description: description, ...(field ? { field } : {}) }
}

async function readJson(ctx: Context): Promise<{ ok: true; value: unknown } | { ok: false }> {
  let raw: Buffer
  try {
    raw = await readRawBody(ctx, MAX_RULES_BODY)
  } catch (err) {
    if (err instanceof BodyTooLargeError) {
      fail(ctx, 413, 'invalid_request', `the rules are over ${MAX_RULES_BODY} bytes; send fewer rules`)
      return { ok: false }
    }
    throw err
  }
  if (!ctx.is('application/json')) {
    fail(
      ctx,
      415,
      'invalid_request',
      `send the rules as JSON with Content-Type: application/json, got ${ctx.get('content-type') ? `"${ctx.get('content-type')}"` : 'no Content-Type'}`,
    )
    return { ok: false }
  }
  try {
    return { ok: true, value: JSON.parse(raw.toString('utf8')) }
  } catch (err) {
    fail(ctx, 400, 'invalid_request', `the body is not valid JSON (${(err as Error).message})`)
    return { ok: false }
  }
}

/**
 * The fault admin endpoint on the directory origin, beside `/admin/clock`: `GET` lists the rules with
 * their counts, `PUT` replaces the set (`{"rules": [...]}`), `POST` adds one rule, `DELETE` clears,
 * `DELETE /admin/faults/{id}` removes one. A bad rule is a 400 whose `field` names it. The rules live in
 * the store: on a shared store, a change made through one instance is in force on every instance.
 */
export function faultAdminRoutes(faults: FaultSet, log: (line: string) => void): Middleware {
  const router = new Router()
  const guarded = (apply: (value: unknown) => Promise<unknown>, status: number) => async (ctx: Context) => {
    const body = await readJson(ctx)
    if (!body.ok) return
    try {
      ctx.body = await apply(body.value)
      ctx.status = status
    } catch (err) {
      if (err instanceof FaultRuleError) return fail(ctx, 400, 'invalid_request', err.message, err.field)
      throw err
    }
  }
  router.get('/admin/faults', async (ctx) => {
    // This instance's copy of the rules is brought up to date too (on a shared store, another may have changed them).
    await faults.reload()
    ctx.body = { rules: await faults.list() }
  })
  router.put(
    '/admin/faults',
    guarded(async (value) => {
      const rules = await faults.set(value)
      log(`fault mode: ${rules.length} rule(s) set`)
      return { rules }
    }, 200),
  )
  router.post(
    '/admin/faults',
    guarded(async (value) => {
      const rule = await faults.add(value)
      log(`fault mode: rule ${rule.id} (${rule.fault.kind}) added`)
      return { rule }
    }, 201),
  )
  router.delete('/admin/faults', async (ctx) => {
    const removed = await faults.clear()
    if (removed) log(`fault mode: ${removed} rule(s) cleared`)
    ctx.body = { removed }
  })
  router.delete('/admin/faults/:id', async (ctx) => {
    const { id } = ctx.params as { id: string }
    if (!(await faults.remove(id)))
      return fail(ctx, 404, 'not_found', `no fault rule with id "${id}"; GET /admin/faults lists the rules`)
    ctx.body = { removed: 1 }
  })
  const routes = router.routes() as Middleware
  return async (ctx, next) => {
    if (!/^\/admin\/faults(\/|$)/.test(ctx.path)) return next()
    ctx.set('Cache-Control', 'no-store')
    await routes(ctx, next)
  }
}
