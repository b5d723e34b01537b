import type { Middleware } from 'koa'
import type { SandboxContext } from '../context.ts'
import type { AuthorisationServer } from '../auth/types.ts'

// PLACEHOLDER, replaced by the PIS implementation.
export function pisRoutes(_ctx: SandboxContext, _auth: Pick<AuthorisationServer, 'tokens' | 'clients'>): Middleware {
  return async (_c, next) => next()
}
