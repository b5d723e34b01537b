import { randomUUID } from 'node:crypto'
import type { Context } from 'koa'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * Echoes the caller's `x-fapi-interaction-id` (or generates one) on every response, errors included.
 * Set before anything else runs, so even a 401 with no body carries it. A value that is not a UUID
 * is replaced (and the replacement is what the response carries): v4.0 says the header is a UUID.
 */
export async function interactionIdMiddleware(ctx: Context, next: () => Promise<unknown>): Promise<void> {
  const sent = ctx.get('x-fapi-interaction-id')
  const id = sent && UUID.test(sent) ? sent : randomUUID()
  ctx.state.interactionId = id
  ctx.set('x-fapi-interaction-id', id)
  await next()
  // Routers or oidc-provider may have rewritten headers: put it back if it went missing.
  if (!ctx.response.get('x-fapi-interaction-id')) ctx.set('x-fapi-interaction-id', id)
}
