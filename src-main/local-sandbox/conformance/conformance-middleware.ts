import type { Context, Middleware } from 'koa'
import { peerCertificate } from '../http/peer-certificate.ts'
import { pathIsUnder } from '../http/route-table.ts'
import { ConformanceProbe } from './probe.ts'
import type { ConformanceRecorder } from './recorder.ts'

/** The API paths whose requests are recorded: AIS and PIS v4.0 on `{base_url}`. */
export const RECORDED_PATHS = ['/open-banking/v4.0/aisp', '/open-banking/v4.0/pisp'] as const

function recorded(path: string): boolean {
  return RECORDED_PATHS.some((base) => pathIsUnder(path, base))
}

/**
 * The `headers.forbidden` rule, read off the request itself: headers and parameters v4.0 drops or says
 * not to use, which the sandbox (like the bank) ignores rather than refuses. Returns the problems.
 */
export function forbiddenHeaderProblems(ctx: Pick<Context, 'method' | 'path' | 'querystring' | 'get'>): string[] {
  const problems: string[] = []
  const ais = ctx.path.startsWith(RECORDED_PATHS[0])
  const readOrDelete = ctx.method === 'GET' || ctx.method === 'DELETE'
  // The query read as the routes read it (URLSearchParams), not through koa's parsed `query` object.
  if (ctx.querystring && new URLSearchParams(ctx.querystring).has('access_token')) {
    problems.push(
      'the access token is in the query string (access_token); send it only in the Authorization header (FAPI forbids tokens in the query)',
    )
  }
  if (ctx.get('x-fapi-financial-id'))
    problems.push('x-fapi-financial-id is sent; v4.0 dropped this header: leave it out')
  if (ais && ctx.get('x-jws-signature'))
    problems.push('x-jws-signature is sent on an AIS call; only the PIS POSTs are signed: leave it out')
  if (ctx.get('x-idempotency-key') && (ais || readOrDelete)) {
    const where = ais
      ? 'an AIS call (AIS is not idempotent: a retried consent POST makes a second consent)'
      : `a ${ctx.method}`
    problems.push(`x-idempotency-key is sent on ${where}; send it only on the PIS POSTs`)
  }
  if (readOrDelete && ctx.get('content-type'))
    problems.push(`Content-Type is sent on a ${ctx.method}, which has no body: leave it out`)
  return problems
}

/**
 * Gives each AIS and PIS request a probe that the sandbox's checks report to (`conformance(ctx)`), adds
 * the checks made on the request as a whole (forbidden headers; the interaction id, in the recorder),
 * and hands the probe to the recorder once the answer is settled (recorded behind the answer; a report
 * read afterwards waits for it). Mount it before the error middleware, so the status it records is the one
 * answered.
 */
export function conformanceMiddleware(recorder: ConformanceRecorder): Middleware {
  return async (ctx, next) => {
    if (!recorded(ctx.path)) return next()
    const probe = new ConformanceProbe()
    ctx.state.conformance = probe
    const problems = forbiddenHeaderProblems(ctx)
    if (problems.length) problems.forEach((p) => probe.fail('headers.forbidden', p))
    else probe.pass('headers.forbidden')
    const sent = ctx.get('x-fapi-interaction-id')
    try {
      await next()
    } finally {
      const thumbprint = peerCertificate(ctx)?.thumbprint
      recorder.finish(probe, {
        at: new Date().toISOString(),
        method: ctx.method,
        path: ctx.path,
        interactionId: String(ctx.state.interactionId ?? ctx.response.get('x-fapi-interaction-id') ?? ''),
        status: ctx.status,
        ...(sent ? { interactionIdSent: sent } : {}),
        ...(thumbprint ? { thumbprint } : {}),
      })
    }
  }
}
