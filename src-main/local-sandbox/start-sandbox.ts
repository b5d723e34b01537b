import 'reflect-metadata'
import { createAuthorisationServer } from './auth/authorisation-server.ts'
import { SandboxClock } from './clock.ts'
import { ConformanceRecorder } from './conformance/recorder.ts'
import { ConsentStore } from './consents/consent-store.ts'
import type { SandboxContext } from './context.ts'
import { dataDirLayout, defaultDataDir, type DataDirLayout } from './data-dir.ts'
import { createDirectory, type LocalDirectory } from './directory/directory.ts'
import { guardHandshakes } from './faults/apply-fault.ts'
import { FaultSet } from './faults/fault-set.ts'
import { generatedAdminToken } from './http/admin-guard.ts'
import { Lifecycle } from './http/lifecycle.ts'
import { loadOrCreateSigningKey } from './keys.ts'
import { precompileRequestSchemas } from './openapi/request-body.ts'
import { loadOrCreatePki } from './pki/ecosystem-pki.ts'
import { saveTemplate, seedFromTemplate } from './pki/template.ts'
import type { EcosystemPki } from './pki/types.ts'
import { loadPsus } from './psus.ts'
import { announceRunning } from './running-file.ts'
import type { RunningSandbox, SandboxOptions } from './sandbox-api.ts'
import { checkStartOptions, type CheckedOptions } from './start/check-options.ts'
import { serveApps } from './start/apps.ts'
import { closeServer, createSandboxServers, listenAll, type Listening } from './start/servers.ts'
import { openSandboxStore } from './store/open-store.ts'
import type { SandboxStore } from './store/sandbox-store.ts'
import { writeErrLine } from '../plumbing/terminal-out.ts'

/** How often expired oidc-provider entries (codes, tokens, sessions, JWT ids) are deleted from the store, ms. */
const EXPIRED_SWEEP_MS = 60_000

type AdminToken = string | { sha256: Buffer; token?: string } | undefined

/** The store, PKI and admin token a sandbox starts from, and whether its data directory was seeded from a template. */
interface Foundation {
  store: SandboxStore
  /** The store was opened here (from a spec), so the sandbox closes it. */
  ownStore: boolean
  pki: EcosystemPki
  /** The PKI template in use: only for a store whose documents live in the data directory. */
  template: string | undefined
  seeded: boolean
  /** The admin token given, or (required without one) the one kept in the bank documents. */
  admin: AdminToken
}

/** Opens the store and loads (or creates) the PKI; closes a store it opened when that fails. */
async function openFoundation(options: SandboxOptions, layout: DataDirLayout): Promise<Foundation> {
  const given = options.store ?? { kind: 'embedded' }
  const ownStore = 'kind' in given
  const store = 'kind' in given ? await openSandboxStore(given, layout) : given
  // A template seeds a fresh data directory's files; a database store keeps one identity for all its instances.
  const template = store.documents.inDataDir ? options.pkiTemplate : undefined
  try {
    const seeded = template !== undefined && seedFromTemplate(layout, template)
    let admin: AdminToken = options.adminToken
    if (admin === undefined && options.requireAdminToken) admin = await generatedAdminToken(store.documents)
    const pki = await loadOrCreatePki(layout, {
      documents: store.documents,
      ...(options.publicHost ? { serverNames: [options.publicHost] } : {}),
    })
    return { store, ownStore, pki, template, seeded, admin }
  } catch (err) {
    if (ownStore) await store.close()
    throw err
  }
}

/** The context every part of the sandbox shares: addresses, clock, keys, PSUs, store, consents and directory. */
async function sandboxContext(
  options: SandboxOptions,
  base: { layout: DataDirLayout; pki: EcosystemPki; store: SandboxStore; addresses: Listening['addresses'] },
  log: (line: string) => void,
): Promise<SandboxContext & { directory: LocalDirectory }> {
  const { store } = base
  // The clock only moves forward, across restarts too: the larger of the saved and the asked-for offset.
  const clock = new SandboxClock(await store.raiseClockOffset(options.clockOffsetMs ?? 0), store)
  const partial = {
    ...base,
    fixedAddresses: options.publicHost !== undefined || options.publicPort !== undefined,
    clock,
    signingKey: await loadOrCreateSigningKey(store.documents),
    log,
    psus: loadPsus(),
    consents: new ConsentStore(store, clock),
    extensions: { tlsClientAuth: options.tlsClientAuth === true },
  }
  const directory = await createDirectory({ ...partial, documents: store.documents })
  return { ...partial, directory }
}

/** Per client, every rule checked on its AIS and PIS requests (in the store, bounded; see conformance/). */
function conformanceRecorder(context: SandboxContext): ConformanceRecorder {
  const { store, clock, log } = context
  return new ConformanceRecorder(
    store.conformance,
    () => clock.nowSeconds(),
    {},
    {
      onError: (err, n) => log(`conformance: ${n} request(s) could not be recorded: ${err.message}`),
    },
  )
}

/** Expired codes, tokens, sessions and JWT ids are never found; this deletes them from the store now and then. */
function sweepExpired(store: SandboxStore, log: (line: string) => void): NodeJS.Timeout {
  const sweep = setInterval(() => {
    store.oidc
      .deleteExpired()
      .catch((err: Error) => log(`local sandbox: deleting expired entries failed: ${err.message}`))
  }, EXPIRED_SWEEP_MS)
  sweep.unref()
  return sweep
}

/** Keeps the fresh PKI as the template for the next fresh sandbox; a failure only costs the next one its speed. */
function keepTemplate(layout: DataDirLayout, foundation: Foundation, log: (line: string) => void): void {
  if (foundation.template === undefined || foundation.seeded) return
  try {
    saveTemplate(layout, foundation.template)
  } catch (err) {
    log(
      `local sandbox: could not keep the PKI template in ${foundation.template} (${(err as Error).message}); the next fresh sandbox generates its own`,
    )
  }
}

/** What the caller gets: addresses, the CA bundle, the PSUs' logins, fault and conformance controls, and stop. */
function runningSandbox(
  parts: { context: SandboxContext; foundation: Foundation; listening: Listening; checked: CheckedOptions },
  controls: Pick<RunningSandbox, 'faults' | 'conformance' | 'stop'>,
): RunningSandbox {
  const { context, foundation, listening, checked } = parts
  const { admin, pki } = foundation
  return {
    ...listening.addresses,
    listeningPorts: listening.ports,
    adminTokenRequired: admin !== undefined,
    ...(typeof admin === 'object' && admin.token ? { generatedAdminToken: admin.token } : {}),
    dataDir: context.layout.root,
    caBundlePath: pki.caBundlePath,
    caBundlePem: pki.caBundlePem,
    transportCertificates: checked.transportCertificates,
    psus: context.psus.psus.map(({ username, password, name }) => ({ username, password, name })),
    context,
    ...controls,
  }
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
  // Bad options fail first, before anything is written or a port is taken.
  const checked = checkStartOptions(options)
  const log = options.log ?? writeErrLine
  const layout = dataDirLayout(options.dataDir ?? defaultDataDir())
  const foundation = await openFoundation(options, layout)
  const { store, ownStore, pki } = foundation
  // The official v4.0 schemas that request bodies are checked with: ready now (built ahead or compiled), not per request.
  precompileRequestSchemas()
  const servers = createSandboxServers(pki, checked.tlsMode, checked.transportCertificates)
  // Ready once everything below has started; unready from the moment stop() begins (GET /readyz).
  const lifecycle = new Lifecycle(() => store.readiness())
  // The rules live in the store; this process matches requests against its copy of them.
  const faults = new FaultSet(store.faults, log)
  guardHandshakes(servers.base, 'base', faults, log)
  guardHandshakes(servers.auth, 'auth', faults, log)
  guardHandshakes(servers.directory, 'directory', faults, log)
  try {
    // Rules given at start replace the store's; without any, the store's stay (on a shared store, the
    // rules other instances set).
    if (checked.initialRules) await store.faults.replace(checked.initialRules)
    await faults.start()
    const listening = await listenAll(servers, options, log)
    const context = await sandboxContext(options, { layout, pki, store, addresses: listening.addresses }, log)
    servers.trustDirectory(context.directory)
    const auth = await createAuthorisationServer(context)
    const conformance = conformanceRecorder(context)
    await serveApps(servers, lifecycle, { context, auth, conformance, faults, admin: foundation.admin, options })
    if (faults.size) log(`fault mode: ${faults.size} rule(s) in force`)
    const sweep = sweepExpired(store, log)
    // Lets `ob-console sandbox --issue-tpp` (another process) find this sandbox's directory address.
    const unannounce = announceRunning(layout, listening.addresses)
    keepTemplate(layout, foundation, log)
    lifecycle.started()
    return runningSandbox(
      { context, foundation, listening, checked },
      {
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
          await lifecycle.stop(servers.all, stopOptions.graceMs ?? 0)
          // The requests answered before the stop are recorded before the store closes.
          await conformance.settled()
          await faults.stop()
          unannounce()
          if (ownStore) await store.close()
        },
      },
    )
  } catch (err) {
    await Promise.all(servers.all.filter((s) => s.listening).map(closeServer))
    await faults.stop()
    if (ownStore) await store.close()
    throw err
  }
}
