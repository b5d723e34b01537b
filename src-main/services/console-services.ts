import { join } from 'node:path'
import type { ContractEvents, EventName } from '../contract/api.ts'
import type { FlowProgress } from '../contract/flows.ts'
import type { ContractEvent } from '../contract/transport.ts'
import { createKeyFileEncryptor } from '../certificates/key-file-encryptor.ts'
import { CLEAR_KEY_FILE, type MasterKeyProtection } from '../certificates/master-key.ts'
import { EncryptedFileSecretStore, type SecretStore, type StringEncryptor } from '../certificates/secret-store.ts'
import { systemClock, type Clock } from '../core/clock.ts'
import { ensureDataDir } from '../core/paths.ts'
import { redactJson } from '../core/redact.ts'
import { CaptureHub } from '../flows/capture/capture-hub.ts'
import { startLoopbackListener, type LoopbackListener } from '../flows/capture/loopback-listener.ts'
import type { PsuAbsentCallStore } from '../flows/ais/psu-absent-budget.ts'
import type { QuietGate } from '../http/quiet-time.ts'
import { EnvironmentsService, type LocalSandboxPort } from './environments-service.ts'
import { clientCredentialsToken, flowContextFactory } from './flow-context-factory.ts'
import { maskStep } from './flow-masking.ts'
import { FlowsService } from './flows-service.ts'
import { localStarterKitFetcher } from './local-starter-kit.ts'
import type { SettingsStore } from './persistence/settings-store.ts'
import { createFileClientStore } from './persistence/client-store.ts'
import { createFileSettingsStore } from './persistence/settings-store.ts'
import type { HttpEngine } from './ports.ts'
import { RegistrationService, type HttpFor } from './registration-service.ts'
import { ConsentsService } from './consents-service.ts'
import { createConsoleStateStore, type ConsoleStateStore } from './persistence/console-state-store.ts'
import { TppsService } from './tpps-service.ts'
import { writeErrLine } from '../plumbing/terminal-out.ts'
import { createFlowHistoryStore, type FlowHistoryStore } from './persistence/flow-history-store.ts'
import { EnvironmentClocks } from './environment-clock.ts'
import { SandboxClockService } from './sandbox-clock.ts'
import { useBuiltAnswerShapes } from '../flows/common/bank-answer.ts'
import { loadAnswerShapeValidators } from './answer-shape-validators.ts'

export const DEFAULT_LOOPBACK_PORT = 53682

export interface ConsoleServicesOptions {
  /** The console's data directory (settings, encrypted secrets). */
  dataDir: string
  host: 'electron' | 'web'
  version: string
  /** The HTTP engine (mutual TLS, exchange log). */
  http: HttpEngine
  /** Electron passes electron-store; elsewhere a conf file store in the data directory. */
  settings?: SettingsStore
  /** Electron passes a master-key encryptor whose key the OS keychain wraps; elsewhere a key file readable by the user alone. */
  encryptor?: StringEncryptor
  /** The embedded local sandbox, started on demand. */
  sandbox?: LocalSandboxPort
  /** Port of the loopback redirect listener (registered redirect URI `http://127.0.0.1:<port>/callback`); 0 = free. */
  loopbackPort?: number
  /** Desktop: opens the auth window for capture mode `auth-window`. */
  openAuthWindow?: (authorisationUrl: string, redirectUri: string, deliver: (url: string) => void) => void
  clock?: Clock
  log?: (line: string) => void
  /** How long a flow waits for the PSU (ms). */
  captureTimeoutMs?: number
  pisPolling?: { intervalMs: number; maxWaitMs: number }
}

/** The services behind the contract, composed once per host. */
export interface ConsoleServices {
  environments: EnvironmentsService
  tpps: TppsService
  registration: RegistrationService
  flows: FlowsService
  http: HttpEngine
  hub: CaptureHub
  /** The consents the console created (listed, read, revoked). */
  consents: ConsentsService
  /** Each environment's clock (the local sandbox's with its offset). */
  clocks: EnvironmentClocks
  /** Consents, current clients, PSU-absent calls: the console state file. */
  state: ConsoleStateStore
  /** The flows of earlier runs, masked, one file per flow (written behind the steps: `flushed()`). */
  history: FlowHistoryStore
  /** The encrypted secret store (main side only): keys, client secrets, the tokens of kept runs. */
  secrets: SecretStore
  /** A client-credentials access token of a registered client (main side only). */
  tokenFor(clientId: string, scope?: string): Promise<string>
  /** HTTP for an environment with a TPP's transport identity. */
  httpFor: HttpFor
  subscribe(listener: (event: ContractEvent) => void): () => void
  emit<N extends EventName>(name: N, payload: ContractEvents[N]): void
  info: {
    version: string
    host: 'electron' | 'web'
    dataDir: string
    loopbackRedirectUri?: string
    masterKey?: () => MasterKeyProtection
  }
  stop(): Promise<void>
}

type Emit = <N extends EventName>(name: N, payload: ContractEvents[N]) => void

/** The contract's events to every subscriber, masked on their way out. */
function eventBus(): {
  emit: Emit
  subscribe: ConsoleServices['subscribe']
  listening: () => boolean
  clear(): void
} {
  const listeners = new Set<(e: ContractEvent) => void>()
  const emit: Emit = (name, payload) => {
    if (!listeners.size) return
    // Flow progress is masked where it is made (FlowsService, with the list of its secrets); every other
    // event is searched by content on its way out.
    const safe = name === 'flows.onDidProgress' ? payload : (redactJson(payload) as typeof payload)
    for (const l of listeners) l({ name, payload: safe })
  }
  return {
    emit,
    subscribe(l) {
      listeners.add(l)
      return () => listeners.delete(l)
    },
    listening: () => listeners.size > 0,
    clear: () => listeners.clear(),
  }
}

/** The loopback redirect listener, or none (said on the log) when its port cannot be had. */
async function loopbackListener(port: number, log: (line: string) => void): Promise<LoopbackListener | undefined> {
  try {
    return await startLoopbackListener(port)
  } catch (err) {
    log(
      `OB Console: the redirect listener could not start (${(err as Error).message}); loopback capture is off, paste the returned URL instead.`,
    )
    return undefined
  }
}

/** The redirect URIs a starter kit's client is registered with: every one the console can capture on. */
function starterKitRedirectUris(listener: LoopbackListener | undefined): string[] {
  return [
    ...new Set([
      ...(listener ? [listener.redirectUri] : []),
      `http://127.0.0.1:${DEFAULT_LOOPBACK_PORT}/callback`,
      'https://127.0.0.1:53682/callback',
      'ob-console://oauth/callback',
    ]),
  ]
}

/**
 * The PSU-absent calls kept in the console state file; calls older than the 24-hour window (on their consent's
 * environment's clock) no longer count.
 */
function psuAbsentCalls(state: ConsoleStateStore, clocks: EnvironmentClocks): PsuAbsentCallStore {
  return {
    load: () => state.read().psuAbsentCalls,
    save: (key, times) => {
      state.update((d) => {
        d.psuAbsentCalls[key] = times
        // Calls older than the window no longer count: their keys are dropped.
        const envOf = new Map(d.consents.map((c) => [c.consentId, c.environmentId]))
        for (const [k, v] of Object.entries(d.psuAbsentCalls)) {
          const cutoff = clocks.now(envOf.get(k.split('|')[0]!)) - 86_400_000
          if (!v.some((t) => t > cutoff)) delete d.psuAbsentCalls[k]
        }
      })
    },
  }
}

/** What the console says of itself: its version, host, data directory, loopback redirect and key protection. */
function appInfo(
  options: ConsoleServicesOptions,
  dataDir: string,
  listener: LoopbackListener | undefined,
  encryptor: StringEncryptor,
): ConsoleServices['info'] {
  return {
    version: options.version,
    host: options.host,
    dataDir,
    ...(listener ? { loopbackRedirectUri: listener.redirectUri } : {}),
    ...(encryptor.protection ? { masterKey: () => encryptor.protection!() } : {}),
  }
}

/** HTTP as an identity in an environment, its exchanges marked with the flow when one is named. */
function identityHttp(environments: EnvironmentsService, tpps: TppsService, http: HttpEngine): HttpFor {
  return async (environmentId, tppId, flowId) => {
    const env = environments.get(environmentId)
    const material = await tpps.material(tppId)
    return http.forIdentity(env, material.transport, { tppId, ...(flowId ? { flowId } : {}) })
  }
}

/** Each environment's clock: wall time for a bank, the local sandbox's with its offset (asked, or read from its store). */
function environmentClocks(
  environments: EnvironmentsService,
  options: ConsoleServicesOptions,
  clock: Clock,
): EnvironmentClocks {
  const clocks: EnvironmentClocks = new EnvironmentClocks({
    wall: () => clock.now().getTime(),
    localSandboxId: () => environments.list().find((e) => e.kind === 'local-sandbox')?.id,
    running: () => !!environments.localDirectory(),
    ...(options.sandbox?.storedClockOffsetMs ? { storedOffsetMs: () => options.sandbox!.storedClockOffsetMs!() } : {}),
    readSandboxClock: () => new SandboxClockService(environments, options.http, clocks).get(),
  })
  return clocks
}

/** The flow history in `<store>/flows`; a flow it cannot write is logged (listed until the console stops). */
function flowHistory(storeDir: string, log: (line: string) => void, writeWhen: QuietGate): FlowHistoryStore {
  return createFlowHistoryStore(join(storeDir, 'flows'), {
    writeWhen,
    onWriteError: (flowId, err) =>
      log(
        `OB Console: flow ${flowId} is not kept in the flow history (${err.message}); it stays listed until the console stops.`,
      ),
  })
}

function consoleState(storeDir: string, log: (line: string) => void, writeWhen: QuietGate): ConsoleStateStore {
  return createConsoleStateStore(join(storeDir, 'console-state.json'), {
    writeWhen,
    onWriteError: (err) =>
      log(
        `OB Console: the console state (consents, current clients, PSU-absent calls) was not written (${err.message}); it is kept in memory and written with the next change.`,
      ),
  })
}

/**
 * What a flow's progress updates besides its event: the consent list, and the exchange a step failed on. It is
 * told each progress unmasked (main side only); the failed step's texts go to the exchange's views masked.
 */
function onFlowProgress(
  consents: ConsentsService,
  flows: () => FlowsService,
  http: HttpEngine,
  log: (line: string) => void,
): (progress: FlowProgress) => void {
  return (progress) => {
    try {
      consents.onProgress(flows().head(progress.flowId), progress)
    } catch (err) {
      log(`OB Console: the consent list could not be updated (${(err as Error).message}).`)
    }
    // A step that failed on an exchange: the exchange's views and HAR entry name the step and its code.
    const error = progress.step.status === 'failed' ? maskStep(progress.step).error : undefined
    if (error?.exchangeId)
      http.exchanges.noteFailedStep(error.exchangeId, {
        flowId: progress.flowId,
        step: error.step,
        code: error.code,
        what: error.what,
      })
  }
}

export async function createConsoleServices(options: ConsoleServicesOptions): Promise<ConsoleServices> {
  const log = options.log ?? writeErrLine
  const clock = options.clock ?? systemClock()
  // The steps read the bank's answers with validators built ahead when out/validators/ has them.
  useBuiltAnswerShapes(loadAnswerShapeValidators)
  const layout = ensureDataDir(options.dataDir)
  const settings = options.settings ?? createFileSettingsStore(layout.store)
  const encryptor = options.encryptor ?? createKeyFileEncryptor(join(layout.secrets, CLEAR_KEY_FILE))
  const secrets = new EncryptedFileSecretStore(layout.secrets, encryptor)
  const events = eventBus()
  const emit = events.emit
  const http = options.http
  const unRecord = http.exchanges.onRecord((summary) => emit('exchanges.onDidRecord', summary))
  const listener = await loopbackListener(options.loopbackPort ?? DEFAULT_LOOPBACK_PORT, log)
  const hub = new CaptureHub(listener)

  const environments = new EnvironmentsService(settings, options.sandbox)
  const fetchKit = localStarterKitFetcher(http, () => environments.localDirectory(), starterKitRedirectUris(listener))
  const tpps = new TppsService(settings, secrets, environments, fetchKit, clock)
  const httpFor = identityHttp(environments, tpps, http)
  const contextFor = flowContextFactory({
    environments,
    tpps,
    registration: () => registration,
    http,
    hub,
    clock,
    ...(options.captureTimeoutMs !== undefined ? { captureTimeoutMs: options.captureTimeoutMs } : {}),
    ...(options.openAuthWindow ? { openAuthWindow: options.openAuthWindow } : {}),
    deliverDeeplink: (url) => flows.deliverDeeplink(url),
  })
  const tokenFor = clientCredentialsToken(contextFor, () => registration)
  const clients = createFileClientStore(join(layout.store, 'clients'), { migrateFrom: settings })
  const registration = new RegistrationService(clients, secrets, environments, tpps, httpFor, tokenFor, clock)

  // The stores write in the pauses of the engine's requests, as the lens checks (http/quiet-time.ts).
  const state = consoleState(layout.store, log, http.quiet)

  const clocks = environmentClocks(environments, options, clock)
  const consents = new ConsentsService(state, registration, environments, httpFor, tokenFor, clock, clocks)
  const progressed = onFlowProgress(consents, () => flows, http, log)
  const history = flowHistory(layout.store, log, http.quiet)
  const flows: FlowsService = new FlowsService({
    contextFor: (environmentId, clientId, capture, flowId) => contextFor(environmentId, clientId, capture, flowId),
    hub,
    follow: progressed,
    emit: (progress) => emit('flows.onDidProgress', progress),
    listening: events.listening,
    ...(options.pisPolling ? { pisPolling: options.pisPolling } : {}),
    history,
    log,
    clocks,
    environmentOfConsent: (consentId) => state.read().consents.find((c) => c.consentId === consentId)?.environmentId,
    psuAbsent: {
      keying: state.read().psuAbsentKeying ?? 'consent-account-endpoint',
      store: psuAbsentCalls(state, clocks),
    },
  })

  return {
    environments,
    tpps,
    registration,
    flows,
    http,
    hub,
    consents,
    clocks,
    state,
    history,
    secrets,
    tokenFor,
    httpFor,
    subscribe: events.subscribe,
    emit,
    info: appInfo(options, layout.root, listener, encryptor),
    async stop() {
      unRecord()
      events.clear()
      await listener?.stop()
      await http.close()
      await Promise.all([history.flushed(), state.flushed()])
    },
  }
}
