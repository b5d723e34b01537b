import Koa from 'koa'
import { AisBank } from '../ais/ais-bank.ts'
import { aisRoutes } from '../ais/ais-routes.ts'
import type { AuthorisationServer } from '../auth/types.ts'
import { conformanceAdminRoutes } from '../conformance/conformance-admin.ts'
import { conformanceMiddleware } from '../conformance/conformance-middleware.ts'
import type { ConformanceRecorder } from '../conformance/recorder.ts'
import type { SandboxContext } from '../context.ts'
import { faultingListener } from '../faults/apply-fault.ts'
import { faultAdminRoutes } from '../faults/fault-admin.ts'
import type { FaultSet } from '../faults/fault-set.ts'
import { adminGuard } from '../http/admin-guard.ts'
import { interactionIdMiddleware } from '../http/interaction-id.ts'
import type { Lifecycle } from '../http/lifecycle.ts'
import { ObApiError, obErrorMiddleware } from '../http/ob-error.ts'
import { peerCertificateSettled } from '../http/peer-certificate.ts'
import { pisRoutes } from '../pis/pis-routes.ts'
import { ledgerSync } from '../pis/posting/ledger-sync.ts'
import type { SandboxOptions } from '../sandbox-api.ts'
import type { SandboxServers } from './servers.ts'

/** What the three origins' koa apps are built from. */
export interface AppParts {
  context: SandboxContext
  auth: AuthorisationServer
  conformance: ConformanceRecorder
  faults: FaultSet
  /** The admin token the directory's admin routes require, if any (the token, or its SHA-256). */
  admin: string | { sha256: Buffer } | undefined
  options: SandboxOptions
}

/** The three koa apps (base, auth, directory), each with the interaction id and, on a shared store, the shared clock. */
function newApps(context: SandboxContext): [Koa, Koa, Koa] {
  const { store, clock } = context
  // A store shared with other instances: each request first takes the clock offset they may have moved.
  const followClock: Koa.Middleware = async (_ctx, next) => {
    await clock.refresh()
    await next()
  }
  const apps = [new Koa(), new Koa(), new Koa()] as [Koa, Koa, Koa]
  for (const app of apps) {
    app.use(interactionIdMiddleware)
    if (store.backend !== 'embedded') app.use(followClock)
  }
  return apps
}

/** `{base_url}`: the token endpoint, registration and /o3, then AIS and PIS over one bank, and 404 for the rest. */
async function baseRoutes(app: Koa, parts: AppParts): Promise<void> {
  const { context, auth, conformance, options } = parts
  const { store, log } = context
  // The mutual-TLS origins: a self-signed client certificate is matched to the directory before a request is read.
  app.use(peerCertificateSettled)
  app.use(auth.baseOrigin)
  // Before the error middleware: the status it records is the one answered.
  app.use(conformanceMiddleware(conformance))
  app.use(obErrorMiddleware(log))
  // One bank for AIS and PIS: a payment made through PIS is a transaction AIS shows.
  const bank = await AisBank.forSandbox(context)
  // On a shared store, payments other instances made are posted here before AIS reads their accounts.
  const syncLedgers = store.backend === 'embedded' ? undefined : ledgerSync(store, bank)
  app.use(aisRoutes(context, auth, { bank, psuAbsentQuota: options.psuAbsentQuota, syncLedgers }))
  app.use(await pisRoutes(context, auth, { bank }))
  app.use(async (ctx) => {
    throw new ObApiError(404, {
      code: 'U011',
      message: `no endpoint ${ctx.method} ${ctx.path} in the local sandbox; see docs/local-sandbox.md for the endpoints it serves`,
    })
  })
}

/**
 * Builds the three origins' apps and hands each server its app, behind the fault rules (which may answer
 * first) and the lifecycle (which refuses requests once stopping).
 */
export async function serveApps(servers: SandboxServers, lifecycle: Lifecycle, parts: AppParts): Promise<void> {
  const { context, auth, conformance, faults, admin } = parts
  const { log } = context
  const [baseApp, authApp, directoryApp] = newApps(context)
  await baseRoutes(baseApp, parts)

  authApp.use(peerCertificateSettled)
  authApp.use(auth.authOrigin)

  directoryApp.use(adminGuard(admin))
  directoryApp.use(faultAdminRoutes(faults, log))
  directoryApp.use(conformanceAdminRoutes(conformance, log))
  directoryApp.use(context.directory.routes())

  const serve = (app: Koa, origin: 'base' | 'auth' | 'directory') =>
    lifecycle.listener(faultingListener(origin, faults, app.callback(), log))
  servers.base.on('request', serve(baseApp, 'base'))
  servers.auth.on('request', serve(authApp, 'auth'))
  servers.directory.on('request', serve(directoryApp, 'directory'))
}
