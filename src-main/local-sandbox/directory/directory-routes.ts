import Router from '@koa/router'
import type { Context, Middleware, Next } from 'koa'
import { isoDateTime, type SandboxClock } from '../clock.ts'
import type { SandboxAddresses } from '../context.ts'
import { BodyTooLargeError, readRawBody } from '../http/body.ts'
import type { EcosystemPki } from '../pki/types.ts'
import { parseClockAdvance } from './clock-advance.ts'
import type { LocalDirectory, OrgStatus } from './directory.ts'
import { OnboardInputError } from './onboard-input.ts'

/** An error the directory answers with `{error, error_description}` and the given status. */
export class DirectoryHttpError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    message: string,
  ) {
    super(message)
  }
}

export interface DirectoryRouteDeps {
  directory: LocalDirectory
  clock: SandboxClock
  pki: EcosystemPki
  addresses: SandboxAddresses
  directoryUrl: string
  log: (line: string) => void
}

const MAX_JSON_BODY = 64 * 1024
const ORG_STATUSES: OrgStatus[] = ['Active', 'Revoked', 'Withdrawn']

/** The endpoints, for the index page and for "no such endpoint" answers. */
export const DIRECTORY_ENDPOINTS = [
  'GET /jwks',
  'GET /organisation/{orgId}/jwks',
  'GET /organisation/{orgId}/revoked/jwks',
  'GET /organisation/{orgId}/software/{softwareId}/jwks',
  'GET /organisation/{orgId}/software/{softwareId}/revoked/jwks',
  'POST /tpps',
  'GET /tpps',
  'GET /tpps/{softwareId}',
  'GET /admin/clock',
  'POST /admin/clock',
  'POST /admin/organisation/{orgId}/status',
  'GET|PUT|POST|DELETE /admin/faults',
  'DELETE /admin/faults/{id}',
  'GET|DELETE /admin/conformance',
] as const

function chain(...middleware: Middleware[]): Middleware {
  return (ctx, next) => {
    const dispatch = (i: number): Promise<unknown> =>
      i === middleware.length ? next() : Promise.resolve(middleware[i]!(ctx, () => dispatch(i + 1)))
    return dispatch(0)
  }
}

/** Reads a JSON object body (an empty body is `{}`); 415 for another media type, 400 for bad JSON. */
async function readJsonBody(ctx: Context): Promise<unknown> {
  let raw: Buffer
  try {
    raw = await readRawBody(ctx, MAX_JSON_BODY)
  } catch (err) {
    if (err instanceof BodyTooLargeError)
      throw new DirectoryHttpError(
        413,
        'invalid_request',
        `the request body is over ${MAX_JSON_BODY} bytes; a directory request is a small JSON object`,
      )
    throw err
  }
  const text = raw.toString('utf8').trim()
  if (text === '') return {}
  if (!ctx.is('application/json'))
    throw new DirectoryHttpError(
      415,
      'invalid_request',
      `the body must be JSON with Content-Type: application/json, got ${ctx.get('content-type') ? `"${ctx.get('content-type')}"` : 'no Content-Type'}`,
    )
  try {
    return JSON.parse(text)
  } catch (err) {
    throw new DirectoryHttpError(400, 'invalid_request', `the body is not valid JSON (${(err as Error).message})`)
  }
}

function errorMiddleware(log: (line: string) => void): Middleware {
  return async (ctx: Context, next: Next) => {
    try {
      await next()
    } catch (err) {
      if (err instanceof DirectoryHttpError || err instanceof OnboardInputError) {
        ctx.status = err instanceof DirectoryHttpError ? err.status : 400
        ctx.body = { error: err.error, error_description: err.message }
        return
      }
      log(`directory: ${ctx.method} ${ctx.path} failed: ${(err as Error).stack ?? String(err)}`)
      ctx.status = 500
      ctx.body = {
        error: 'server_error',
        error_description: `the local directory failed on ${ctx.method} ${ctx.path}: ${(err as Error).message}; the sandbox log has the details`,
      }
    }
  }
}

function clockState(clock: SandboxClock) {
  return { now: isoDateTime(clock.now()), offsetSeconds: Math.floor(clock.offsetMs / 1000) }
}

/** The JWKS endpoints: the directory's, and each organisation's and software statement's (with their empty revoked lists). */
function jwksRoutes(router: Router, deps: DirectoryRouteDeps): void {
  const { directory } = deps
  const knownSoftware = async (ctx: Context) => {
    const { orgId, softwareId } = ctx.params as { orgId: string; softwareId: string }
    const record = await directory.software(softwareId)
    if (!record || record.orgId !== orgId)
      throw new DirectoryHttpError(
        404,
        'not_found',
        `no software statement ${softwareId} in organisation ${orgId} in this directory; onboard with POST ${deps.directoryUrl}/tpps`,
      )
    return record
  }
  const knownOrg = async (ctx: Context) => {
    const { orgId } = ctx.params as { orgId: string }
    const jwks = await directory.orgJwks(orgId)
    if (!jwks)
      throw new DirectoryHttpError(
        404,
        'not_found',
        `no organisation ${orgId} in this directory; onboard with POST ${deps.directoryUrl}/tpps`,
      )
    return jwks
  }

  router.get('/jwks', (ctx) => {
    ctx.body = directory.publicJwks()
  })
  router.get('/organisation/:orgId/jwks', async (ctx) => {
    ctx.body = await knownOrg(ctx)
  })
  router.get('/organisation/:orgId/revoked/jwks', async (ctx) => {
    await knownOrg(ctx)
    ctx.body = { keys: [] }
  })
  router.get('/organisation/:orgId/software/:softwareId/jwks', async (ctx) => {
    ctx.body = (await knownSoftware(ctx)).jwks
  })
  router.get('/organisation/:orgId/software/:softwareId/revoked/jwks', async (ctx) => {
    await knownSoftware(ctx)
    ctx.body = { keys: [] }
  })
}

/** Onboarding (`POST /tpps` answers the whole starter kit) and the TPP records. */
function tppRoutes(router: Router, deps: DirectoryRouteDeps): void {
  const { directory } = deps
  router.post('/tpps', async (ctx) => {
    // The directory checks the body (an OnboardInputError becomes the 400 below).
    const kit = await directory.onboard(await readJsonBody(ctx))
    ctx.status = 201
    ctx.set('Location', `${deps.directoryUrl}/tpps/${kit.softwareId}`)
    ctx.set('Cache-Control', 'no-store')
    ctx.body = { ...kit, rootCaPem: deps.pki.rootCaPem, issuingCaPem: deps.pki.issuingCaPem, addresses: deps.addresses }
  })
  router.get('/tpps', async (ctx) => {
    ctx.body = { tpps: await directory.list() }
  })
  router.get('/tpps/:softwareId', async (ctx) => {
    const { softwareId } = ctx.params as { softwareId: string }
    const record = await directory.software(softwareId)
    if (!record)
      throw new DirectoryHttpError(
        404,
        'not_found',
        `no software statement ${softwareId} in this directory (software ids are up to 22 letters and digits); onboard with POST ${deps.directoryUrl}/tpps`,
      )
    ctx.body = record
  })
}

/** The sandbox admin endpoints the directory serves: the clock, and the organisation status switch. */
function adminRoutes(router: Router, deps: DirectoryRouteDeps): void {
  const { directory, clock } = deps
  router.get('/admin/clock', async (ctx) => {
    await clock.refresh()
    ctx.body = clockState(clock)
  })
  router.post('/admin/clock', async (ctx) => {
    const seconds = parseClockAdvance(
      await readJsonBody(ctx),
      (message) => new DirectoryHttpError(400, 'invalid_request', message),
    )
    await clock.advance(seconds * 1000)
    deps.log(`sandbox clock advanced by ${seconds} s; sandbox time is now ${isoDateTime(clock.now())}`)
    ctx.body = { ...clockState(clock), advancedSeconds: seconds }
  })

  router.post('/admin/organisation/:orgId/status', async (ctx) => {
    const { orgId } = ctx.params as { orgId: string }
    const body = (await readJsonBody(ctx)) as { status?: unknown }
    if (typeof body !== 'object' || body === null || !ORG_STATUSES.includes(body.status as OrgStatus)) {
      throw new DirectoryHttpError(
        400,
        'invalid_request',
        `the body must be {"status": "Active" | "Revoked" | "Withdrawn"}, got ${JSON.stringify(body).slice(0, 100)}`,
      )
    }
    const changed = await directory.setOrgStatus(orgId, body.status as OrgStatus)
    if (changed === 0) throw new DirectoryHttpError(404, 'not_found', `no organisation ${orgId} in this directory`)
    ctx.body = { orgId, orgStatus: body.status, softwareStatements: changed }
  })
}

/**
 * Runs after the router: a path it does not serve gets a 404 naming the endpoints; a wrong method on a known
 * path gets the 405 that allowedMethods() set, with a JSON body.
 */
const fallbacks: Middleware = async (ctx, next) => {
  await next()
  if (ctx.body !== undefined && ctx.body !== null) return
  if (ctx.status === 405) {
    ctx.status = 405
    ctx.body = {
      error: 'method_not_allowed',
      error_description: `${ctx.method} is not allowed on ${ctx.path}; allowed: ${ctx.response.get('Allow')}`,
    }
  } else if (ctx.status === 404) {
    throw new DirectoryHttpError(
      404,
      'not_found',
      `no endpoint ${ctx.method} ${ctx.path} on the local directory; it serves ${DIRECTORY_ENDPOINTS.join(', ')}`,
    )
  }
}

/**
 * The directory's HTTP endpoints: JWKS of the directory, of each organisation and software statement,
 * onboarding (`POST /tpps` answers the whole starter kit), TPP records, the sandbox admin clock and the
 * organisation status switch. Every answer is JSON; errors are `{error, error_description}`.
 */
export function directoryRoutes(deps: DirectoryRouteDeps): Middleware {
  const router = new Router()
  router.get('/', (ctx) => {
    ctx.body = { issuer: deps.directory.issuer, directoryUrl: deps.directoryUrl, endpoints: DIRECTORY_ENDPOINTS }
  })
  jwksRoutes(router, deps)
  tppRoutes(router, deps)
  adminRoutes(router, deps)
  return chain(
    errorMiddleware(deps.log),
    fallbacks,
    router.routes() as Middleware,
    router.allowedMethods() as Middleware,
  )
}
