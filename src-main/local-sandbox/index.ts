import 'reflect-metadata'
import { rmSync } from 'node:fs'
import { createServer, type Server } from 'node:https'
import { join } from 'node:path'
import type { AddressInfo } from 'node:net'
import Koa from 'koa'
import { SandboxClock } from './clock.ts'
import { ConsentStore } from './consents/consent-store.ts'
import type { SandboxAddresses, SandboxContext } from './context.ts'
import { dataDirLayout, defaultDataDir } from './data-dir.ts'
import { createDirectory, type LocalDirectory } from './directory/directory.ts'
import {
  TRANSPORT_CERTIFICATES,
  applyTransportTrust,
  peerCertificateSettled,
  type TransportTrust,
} from './http/peer-certificate.ts'
import { createAuthorisationServer } from './auth/authorisation-server.ts'
import { AisBank } from './ais/ais-bank.ts'
import { aisRoutes } from './ais/ais-routes.ts'
import { pisRoutes } from './pis/pis-routes.ts'
import { ledgerSync } from './pis/posting/ledger-sync.ts'
import { interactionIdMiddleware } from './http/interaction-id.ts'
import { adminGuard, adminTokenProblem, generatedAdminToken } from './http/admin-guard.ts'
import { Lifecycle } from './http/lifecycle.ts'
import { isLoopback, publicAddresses, publicHostProblem } from './http/public-addresses.ts'
import { ObApiError, obErrorMiddleware } from './http/ob-error.ts'
import { faultingListener, guardHandshakes } from './faults/apply-fault.ts'
import { faultAdminRoutes } from './faults/fault-admin.ts'
import { conformanceAdminRoutes } from './conformance/conformance-admin.ts'
import { conformanceMiddleware } from './conformance/conformance-middleware.ts'
import { ConformanceRecorder } from './conformance/recorder.ts'
import { checkFaultRules, FaultSet } from './faults/fault-set.ts'
import { loadOrCreateSigningKey } from './keys.ts'
import { loadOrCreatePki } from './pki/ecosystem-pki.ts'
import type { EcosystemPki } from './pki/types.ts'
import { saveTemplate, seedFromTemplate } from './pki/template.ts'
import { loadPsus } from './psus.ts'
import { precompileRequestSchemas } from './openapi/request-body.ts'
import { JsonFile } from './store/json-file.ts'
import { openSandboxStore } from './store/open-store.ts'
import type { RunningSandbox, SandboxOptions } from './sandbox-api.ts'

export type { SandboxAddresses, SandboxContext } from './context.ts'
export type { SandboxStore } from './store/sandbox-store.ts'
export { migrateSandboxStore, parseStoreSpec, redactStoreUrl, type StoreSpec } from './store/open-store.ts'
export { storedClockOffsetMs } from './store/stored-clock.ts'
export type { Fault, FaultRule, FaultRuleInput, SandboxOrigin } from './faults/fault-rules.ts'
export { FaultRuleError } from './faults/fault-rules.ts'
export { TRANSPORT_CERTIFICATES, type TransportCertificates } from './http/peer-certificate.ts'
export type { FaultRuleState } from './faults/fault-set.ts'
export type {
  ConformanceClientSummary,
  ConformanceFailure,
  ConformanceLimits,
  ConformanceReport,
  ConformanceRuleResult,
} from './conformance/report-types.ts'
import { writeErrLine } from '../plumbing/terminal-out.ts'
export { CONFORMANCE_RULES, type ConformanceRuleId } from './conformance/rules.ts'

export type { RunningSandbox, SandboxConformance, SandboxFaults, SandboxOptions } from './sandbox-api.ts'

const HOST = '127.0.0.1'
/** How often expired oidc-provider entries (codes, tokens, sessions, JWT ids) are deleted from the store, ms. */
const EXPIRED_SWEEP_MS = 60_000

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve((server.address() as AddressInfo).port)
    })
  })
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve())
    server.closeAllConnections()
  })
}

/**
 * Starts the local sandbox of the bank on 127.0.0.1 and returns its addresses and a stop function.
 *
 * @example
 *   const sandbox = await startLocalSandbox({ dataDir: tmp })
 *   // ... sandbox.baseUrl, sandbox.authUrl, sandbox.caBundlePath
 *   await sandbox.stop()
 */
export async function startLocalSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  // A bad rule or admin token fails first, before anything is written or a port is taken.
  const initialRules = options.faults === undefined ? undefined : checkFaultRules(options.faults)
  const tokenProblem = options.adminToken === undefined ? undefined : adminTokenProblem(options.adminToken)
  if (tokenProblem) throw new RangeError(`the admin token cannot be used: ${tokenProblem}`)
  const hostProblem = options.publicHost === undefined ? undefined : publicHostProblem(options.publicHost)
  if (hostProblem) throw new RangeError(`publicHost cannot be used: ${hostProblem}`)
  if (
    options.publicPort !== undefined &&
    !(Number.isInteger(options.publicPort) && options.publicPort >= 1 && options.publicPort <= 65533)
  )
    throw new RangeError(
      `publicPort must be a whole number from 1 to 65533 (the next two ports are the other origins'), got ${options.publicPort}`,
    )
  const log = options.log ?? writeErrLine
  const layout = dataDirLayout(options.dataDir ?? defaultDataDir())
  const given = options.store ?? { kind: 'embedded' }
  const ownStore = 'kind' in given
  const store = 'kind' in given ? await openSandboxStore(given, layout) : given
  // A template seeds a fresh data directory's files; a database store keeps one identity for all its instances.
  const template = store.documents.inDataDir ? options.pkiTemplate : undefined
  let pki: EcosystemPki
  let seeded = false
  // The admin token given, or (required without one) the one kept in the bank documents.
  let admin: string | { sha256: Buffer; token?: string } | undefined = options.adminToken
  try {
    seeded = template !== undefined && seedFromTemplate(layout, template)
    if (admin === undefined && options.requireAdminToken) admin = await generatedAdminToken(store.documents)
    pki = await loadOrCreatePki(layout, {
      documents: store.documents,
      ...(options.publicHost ? { serverNames: [options.publicHost] } : {}),
    })
  } catch (err) {
    if (ownStore) await store.close()
    throw err
  }
  const tlsMode = options.tlsMode ?? 'explain'
  const transportCertificates = options.transportCertificates ?? 'self-signed-allowed'
  if (!TRANSPORT_CERTIFICATES.includes(transportCertificates))
    throw new RangeError(
      `transportCertificates must be ${TRANSPORT_CERTIFICATES.join(' or ')}, got ${JSON.stringify(transportCertificates)}`,
    )
  // The official v4.0 schemas that request bodies are checked with: ready now (built ahead or compiled), not per request.
  precompileRequestSchemas()

  const tls = {
    key: pki.serverTls.keyPem,
    cert: pki.serverTls.certPem,
    ca: pki.caBundlePem,
    minVersion: 'TLSv1.2' as const,
  }
  // {base_url}: mutual TLS. {auth_url}: browsers reach it, and it serves the token endpoint, which needs the
  // client certificate: the certificate is asked for but the handshake never refused; the token endpoint
  // checks it per request (401 without one). The directory: server TLS only.
  // With self-signed certificates allowed, the handshake cannot judge a certificate (it knows no registered
  // keys): the handshake mode then closes an unaccepted connection right after the handshake instead.
  const baseServer = createServer({
    ...tls,
    requestCert: true,
    rejectUnauthorized: tlsMode === 'handshake' && transportCertificates === 'ca-issued',
  })
  const authServer = createServer({ ...tls, requestCert: true, rejectUnauthorized: false })
  let directoryForTrust: LocalDirectory | undefined
  const trust: TransportTrust = {
    mode: transportCertificates,
    selfSignedProblem: async (peer) =>
      directoryForTrust ? directoryForTrust.selfSignedProblem(peer) : 'the sandbox is still starting',
  }
  applyTransportTrust(baseServer, trust, tlsMode === 'handshake' ? (socket) => socket.destroy() : undefined)
  applyTransportTrust(authServer, trust)
  const directoryServer = createServer(tls)
  const servers = [baseServer, authServer, directoryServer]
  // Ready once everything below has started; unready from the moment stop() begins (GET /readyz).
  const lifecycle = new Lifecycle(() => store.readiness())
  // The rules live in the store; this process matches requests against its copy of them.
  const faults = new FaultSet(store.faults, log)
  guardHandshakes(baseServer, 'base', faults, log)
  guardHandshakes(authServer, 'auth', faults, log)
  guardHandshakes(directoryServer, 'directory', faults, log)
  try {
    // Rules given at start replace the store's; without any, the store's stay (on a shared store, the
    // rules other instances set).
    if (initialRules) await store.faults.replace(initialRules)
    await faults.start()
    const port = options.port ?? 0
    const bind = options.bind ?? HOST
    const basePort = await listen(baseServer, port, bind)
    const authPort = await listen(authServer, port === 0 ? 0 : port + 1, bind)
    const directoryPort = await listen(directoryServer, port === 0 ? 0 : port + 2, bind)
    const addresses: SandboxAddresses = publicAddresses(
      { host: options.publicHost ?? HOST, port: options.publicPort },
      [basePort, authPort, directoryPort],
    )
    if (!isLoopback(bind))
      log(
        `local sandbox: listening on ${bind}, so it is reachable from the network, not only from this machine; it answers as ${addresses.baseUrl}`,
      )

    // The clock only moves forward, across restarts too: the larger of the saved and the asked-for offset.
    const clock = new SandboxClock(await store.raiseClockOffset(options.clockOffsetMs ?? 0), store)
    const signingKey = await loadOrCreateSigningKey(store.documents)
    const partial = {
      addresses,
      fixedAddresses: options.publicHost !== undefined || options.publicPort !== undefined,
      layout,
      clock,
      pki,
      signingKey,
      log,
      psus: loadPsus(),
      store,
      consents: new ConsentStore(store, clock),
      extensions: { tlsClientAuth: options.tlsClientAuth === true },
    }
    const directory = await createDirectory({ ...partial, documents: store.documents })
    directoryForTrust = directory
    const context: SandboxContext = { ...partial, directory }
    const auth = await createAuthorisationServer(context)

    // Per client, every rule checked on its AIS and PIS requests (in the store, bounded; see conformance/).
    const conformance = new ConformanceRecorder(
      store.conformance,
      () => clock.nowSeconds(),
      {},
      {
        deferred: store.backend !== 'embedded',
        onError: (err, n) => log(`conformance: ${n} request(s) could not be recorded: ${err.message}`),
      },
    )
    // A store shared with other instances: each request first takes the clock offset they may have moved.
    const followClock: Koa.Middleware = async (_ctx, next) => {
      await clock.refresh()
      await next()
    }
    const apps = [new Koa(), new Koa(), new Koa()]
    for (const app of apps) {
      app.use(interactionIdMiddleware)
      if (store.backend !== 'embedded') app.use(followClock)
    }
    const [baseApp, authApp, directoryApp] = apps as [Koa, Koa, Koa]
    // The mutual-TLS origins: a self-signed client certificate is matched to the directory before a request is read.
    baseApp.use(peerCertificateSettled)
    authApp.use(peerCertificateSettled)
    baseApp.use(auth.baseOrigin)
    // Before the error middleware: the status it records is the one answered.
    baseApp.use(conformanceMiddleware(conformance, log))
    baseApp.use(obErrorMiddleware(log))
    // One bank for AIS and PIS: a payment made through PIS is a transaction AIS shows.
    const bank = await AisBank.forSandbox(context)
    // On a shared store, payments other instances made are posted here before AIS reads their accounts.
    const syncLedgers = store.backend === 'embedded' ? undefined : ledgerSync(store, bank)
    baseApp.use(aisRoutes(context, auth, { bank, psuAbsentQuota: options.psuAbsentQuota, syncLedgers }))
    baseApp.use(await pisRoutes(context, auth, { bank }))
    baseApp.use(async (ctx) => {
      throw new ObApiError(404, {
        code: 'U011',
        message: `no endpoint ${ctx.method} ${ctx.path} in the local sandbox; see docs/local-sandbox.md for the endpoints it serves`,
      })
    })

    authApp.use(auth.authOrigin)

    directoryApp.use(adminGuard(admin))
    directoryApp.use(faultAdminRoutes(faults, log))
    directoryApp.use(conformanceAdminRoutes(conformance, log))
    directoryApp.use(directory.routes())

    baseServer.on('request', lifecycle.listener(faultingListener('base', faults, baseApp.callback(), log)))
    authServer.on('request', lifecycle.listener(faultingListener('auth', faults, authApp.callback(), log)))
    directoryServer.on(
      'request',
      lifecycle.listener(faultingListener('directory', faults, directoryApp.callback(), log)),
    )
    if (faults.size) log(`fault mode: ${faults.size} rule(s) in force`)
    // Expired codes, tokens, sessions and JWT ids are never found; this deletes them from the store.
    const sweep = setInterval(() => {
      store.oidc
        .deleteExpired()
        .catch((err: Error) => log(`local sandbox: deleting expired entries failed: ${err.message}`))
    }, EXPIRED_SWEEP_MS)
    sweep.unref()

    // Lets `ob-console sandbox --issue-tpp` (another process) find this sandbox's directory address.
    const runningFile = new JsonFile<SandboxAddresses & { pid: number }>(join(layout.state, 'running.json'), () => ({
      ...addresses,
      pid: process.pid,
    }))
    runningFile.write({ ...addresses, pid: process.pid })
    if (template !== undefined && !seeded) {
      try {
        saveTemplate(layout, template)
      } catch (err) {
        log(
          `local sandbox: could not keep the PKI template in ${options.pkiTemplate} (${(err as Error).message}); the next fresh sandbox generates its own`,
        )
      }
    }

    lifecycle.started()
    return {
      ...addresses,
      listeningPorts: { base: basePort, auth: authPort, directory: directoryPort },
      adminTokenRequired: admin !== undefined,
      ...(typeof admin === 'object' && admin.token ? { generatedAdminToken: admin.token } : {}),
      dataDir: layout.root,
      caBundlePath: pki.caBundlePath,
      caBundlePem: pki.caBundlePem,
      transportCertificates,
      psus: context.psus.psus.map(({ username, password, name }) => ({ username, password, name })),
      context,
      faults: {
        set: (rules) => faults.set(rules),
        add: (rule) => faults.add(rule),
        remove: (id) => faults.remove(id),
        clear: async () => void (await faults.clear()),
        list: () => faults.list(),
      },
      conformance: {
        report: (clientId) => conformance.report(clientId),
        clients: () => conformance.clients(),
        clear: (clientId) => conformance.clear(clientId),
      },
      stop: async (stopOptions = {}) => {
        clearInterval(sweep)
        await lifecycle.stop(servers, stopOptions.graceMs ?? 0)
        await faults.stop()
        rmSync(runningFile.path, { force: true })
        if (ownStore) await store.close()
      },
    }
  } catch (err) {
    await Promise.all(servers.filter((s) => s.listening).map(close))
    await faults.stop()
    if (ownStore) await store.close()
    throw err
  }
}
