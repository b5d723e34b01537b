import { join } from 'node:path'
import type { ContractEvents, EventName } from '../contract/api.ts'
import type { ContractEvent } from '../contract/transport.ts'
import { createKeyFileEncryptor } from '../certificates/key-file-encryptor.ts'
import { CLEAR_KEY_FILE, type MasterKeyProtection } from '../certificates/master-key.ts'
import { EncryptedFileSecretStore, type SecretStore, type StringEncryptor } from '../certificates/secret-store.ts'
import { AppError } from '../core/app-error.ts'
import { systemClock, type Clock } from '../core/clock.ts'
import { ensureDataDir } from '../core/paths.ts'
import { redactJson } from '../core/redact.ts'
import { CaptureHub } from '../flows/capture/capture-hub.ts'
import { startLoopbackListener, type LoopbackListener } from '../flows/capture/loopback-listener.ts'
import { discoveryStep, type Discovery } from '../flows/common/discovery.ts'
import { readTokens, tokenRequest } from '../flows/common/tokens.ts'
import type { FlowContext } from '../flows/flow-context.ts'
import type { CaptureMode } from '../contract/api.ts'
import { EnvironmentsService, type LocalSandboxPort } from './environments-service.ts'
import { createFlowSigner } from './flow-signer.ts'
import { checkHeadlessCapture } from './headless-capture.ts'
import { FlowsService } from './flows-service.ts'
import type { SettingsStore } from './persistence/settings-store.ts'
import { createFileClientStore } from './persistence/client-store.ts'
import { createFileSettingsStore } from './persistence/settings-store.ts'
import type { HttpEngine } from './ports.ts'
import { RegistrationService, type HttpFor } from './registration-service.ts'
import { ConsentsService } from './consents-service.ts'
import { createConsoleStateStore, type ConsoleStateStore } from './persistence/console-state-store.ts'
import { createFlowHistoryStore } from './persistence/flow-history-store.ts'
import { EnvironmentClocks } from './environment-clock.ts'
import { SandboxClockService } from './sandbox-clock.ts'
import { ps256SigningKey } from '../signing/signing-key.ts'
import type { StarterKitJson } from './tpp-starter-kit.ts'
import { TppsService } from './tpps-service.ts'
import { writeErrLine } from '../plumbing/terminal-out.ts'

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

export async function createConsoleServices(options: ConsoleServicesOptions): Promise<ConsoleServices> {
  const log = options.log ?? writeErrLine
  const clock = options.clock ?? systemClock()
  const layout = ensureDataDir(options.dataDir)
  const settings = options.settings ?? createFileSettingsStore(layout.store)
  const encryptor = options.encryptor ?? createKeyFileEncryptor(join(layout.secrets, CLEAR_KEY_FILE))
  const secrets = new EncryptedFileSecretStore(layout.secrets, encryptor)
  const listeners = new Set<(e: ContractEvent) => void>()
  const emit = <N extends EventName>(name: N, payload: ContractEvents[N]) => {
    if (!listeners.size) return
    // Flow progress is masked where it is made (FlowsService, with the list of its secrets); every other
    // event is searched by content on its way out.
    const safe = name === 'flows.onDidProgress' ? payload : (redactJson(payload) as ContractEvents[N])
    for (const l of listeners) l({ name, payload: safe })
  }
  const http = options.http
  const unRecord = http.exchanges.onRecord((summary) => emit('exchanges.onDidRecord', summary))

  let listener: LoopbackListener | undefined
  try {
    listener = await startLoopbackListener(options.loopbackPort ?? DEFAULT_LOOPBACK_PORT)
  } catch (err) {
    log(
      `OB Console: the redirect listener could not start (${(err as Error).message}); loopback capture is off, paste the returned URL instead.`,
    )
  }
  const hub = new CaptureHub(listener)

  const environments = new EnvironmentsService(settings, options.sandbox)
  const fetchKit = async (
    env: Parameters<ConstructorParameters<typeof TppsService>[3]>[0],
    input: { clientName?: string },
  ): Promise<StarterKitJson> => {
    const dir = environments.localDirectory()
    if (!dir)
      throw new AppError('NOT_FOUND', {
        what: 'The local sandbox is not running.',
        cause: 'Its directory issues the starter kit.',
        fix: 'Start the local sandbox first (environments.startLocalSandbox).',
      })
    const res = await http.forIdentity(env, undefined, {}).send({
      method: 'POST',
      url: `${dir.directoryUrl}/tpps`,
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({
        ...(input.clientName ? { clientName: input.clientName } : {}),
        redirectUris: [
          ...new Set([
            ...(listener ? [listener.redirectUri] : []),
            `http://127.0.0.1:${DEFAULT_LOOPBACK_PORT}/callback`,
            'https://127.0.0.1:53682/callback',
            'ob-console://oauth/callback',
          ]),
        ],
      }),
      label: 'directory onboarding (starter kit)',
      clientCertificate: false,
    })
    if (res.status !== 201)
      throw new AppError('HTTP_ERROR', {
        what: `The local directory answered ${res.status}.`,
        cause: res.text.slice(0, 300),
        fix: 'See the exchange; restart the local sandbox if it persists.',
      })
    return res.json as StarterKitJson
  }
  const tpps = new TppsService(settings, secrets, environments, fetchKit, clock)

  const httpFor = async (environmentId: string, tppId: string, flowId?: string) => {
    const env = environments.get(environmentId)
    const material = await tpps.material(tppId)
    return http.forIdentity(env, material.transport, { tppId, ...(flowId ? { flowId } : {}) })
  }

  const contextFor = async (
    environmentId: string,
    clientId: string,
    capture: CaptureMode,
    flowId?: string,
  ): Promise<FlowContext> => {
    const client = registration.record(clientId)
    if (client.environmentId !== environmentId)
      throw new AppError('INVALID_INPUT', {
        what: `Client ${clientId} is registered in another environment.`,
        cause: `It belongs to ${client.environmentId}.`,
        fix: 'Pick a client registered in this environment.',
      })
    const env = environments.get(environmentId)
    // A flow's capture (the client-credentials context below asks for none: it names no flow).
    if (flowId) checkHeadlessCapture(capture, env, client)
    const material = await tpps.material(client.tppId)
    const flowHttp = http.forIdentity(env, material.transport, { tppId: client.tppId, ...(flowId ? { flowId } : {}) })
    const loopback = hub.loopbackRedirectUri
    const consoleScheme = client.redirectUris.find((u) => u.startsWith('ob-console:'))
    const redirectUri =
      capture === 'loopback' || capture === 'headless'
        ? loopback && client.redirectUris.includes(loopback)
          ? loopback
          : client.redirectUris[0]
        : capture === 'deeplink' || capture === 'auth-window'
          ? (consoleScheme ?? client.redirectUris[0])
          : (client.redirectUris.find((u) => u.startsWith('https://')) ?? client.redirectUris[0])
    if (!redirectUri)
      throw new AppError('INVALID_INPUT', {
        what: 'The client has no redirect URI.',
        cause: 'The bank returns the PSU to a registered redirect URI.',
        fix: 'Register the client with at least one redirect URI.',
      })
    if (capture === 'loopback' && redirectUri !== loopback) {
      throw new AppError('INVALID_INPUT', {
        what: "Loopback capture needs the client registered with the listener's redirect URI.",
        cause: `The listener is ${loopback ?? 'not running'}; the client has ${client.redirectUris.join(', ')}.`,
        fix: 'Register a client whose redirect URIs include the loopback URI, or paste the returned URL instead.',
      })
    }
    const signer = createFlowSigner({
      ...(material.signing ? { signer: ps256SigningKey(material.signing.key, material.signing.kid) } : {}),
      ...(material.record.orgId ? { orgId: material.record.orgId } : {}),
      ...(material.record.softwareId ? { softwareId: material.record.softwareId } : {}),
      environmentKind: env.kind,
      http: flowHttp,
      clock,
    })
    return {
      environment: env,
      client: {
        clientId,
        authMethod: client.authMethod,
        secret: await registration.secret(clientId),
        redirectUri,
        orgId: material.record.orgId ?? '',
        softwareId: material.record.softwareId ?? '',
      },
      http: flowHttp,
      signer,
      capture: {
        mode: capture,
        hub,
        timeoutMs: options.captureTimeoutMs ?? 15 * 60_000,
        ...(options.openAuthWindow
          ? {
              openAuthWindow: (url: string, redirect: string) =>
                options.openAuthWindow!(url, redirect, (returned) => flows.deliverDeeplink(returned)),
            }
          : {}),
      },
      now: () => clock.now(),
    }
  }

  const tokenFor = async (clientId: string, scope?: string) => {
    const client = registration.record(clientId)
    const ctx = await contextFor(client.environmentId, clientId, 'headless')
    const discovery = (
      await discoveryStep().run(ctx, {
        exchange: () => undefined,
        output: () => {
          throw new Error('unused')
        },
        has: () => false,
        setAwaiting: () => undefined,
        flowId: '',
      })
    ).output as Discovery
    const res = await tokenRequest(
      ctx,
      discovery,
      { grant_type: 'client_credentials', ...(scope ? { scope } : {}) },
      'token (client_credentials, registration management)',
    )
    return readTokens(res, 'The client-credentials token for registration management failed').accessToken
  }
  const clients = createFileClientStore(join(layout.store, 'clients'), { migrateFrom: settings })
  const registration: RegistrationService = new RegistrationService(
    clients,
    secrets,
    environments,
    tpps,
    httpFor,
    tokenFor,
    clock,
  )

  const state = createConsoleStateStore(join(layout.store, 'console-state.json'))
  const clocks: EnvironmentClocks = new EnvironmentClocks({
    wall: () => clock.now().getTime(),
    localSandboxId: () => environments.list().find((e) => e.kind === 'local-sandbox')?.id,
    running: () => !!environments.localDirectory(),
    ...(options.sandbox?.storedClockOffsetMs ? { storedOffsetMs: () => options.sandbox!.storedClockOffsetMs!() } : {}),
    readSandboxClock: () => new SandboxClockService(environments, options.http, clocks).get(),
  })
  const consents = new ConsentsService(state, registration, environments, httpFor, tokenFor, clock, clocks)
  const flows = new FlowsService({
    contextFor: (environmentId, clientId, capture, flowId) => contextFor(environmentId, clientId, capture, flowId),
    hub,
    emit: (progress) => {
      try {
        consents.onProgress(flows.get(progress.flowId), progress)
      } catch (err) {
        log(`OB Console: the consent list could not be updated (${(err as Error).message}).`)
      }
      // A step that failed on an exchange: the exchange's views and HAR entry name the step and its code.
      const error = progress.step.status === 'failed' ? progress.step.error : undefined
      if (error?.exchangeId)
        http.exchanges.noteFailedStep(error.exchangeId, {
          flowId: progress.flowId,
          step: error.step,
          code: error.code,
          what: error.what,
        })
      emit('flows.onDidProgress', progress)
    },
    ...(options.pisPolling ? { pisPolling: options.pisPolling } : {}),
    history: createFlowHistoryStore(join(layout.store, 'flow-history.json')),
    log,
    clocks,
    environmentOfConsent: (consentId) => state.read().consents.find((c) => c.consentId === consentId)?.environmentId,
    psuAbsent: {
      keying: state.read().psuAbsentKeying ?? 'consent-account-endpoint',
      store: {
        load: () => state.read().psuAbsentCalls,
        save: (key, times) => {
          state.update((d) => {
            d.psuAbsentCalls[key] = times
            // Calls older than the 24-hour window (on their consent's environment's clock) no longer count:
            // their keys are dropped.
            const envOf = new Map(d.consents.map((c) => [c.consentId, c.environmentId]))
            for (const [k, v] of Object.entries(d.psuAbsentCalls)) {
              const cutoff = clocks.now(envOf.get(k.split('|')[0]!)) - 86_400_000
              if (!v.some((t) => t > cutoff)) delete d.psuAbsentCalls[k]
            }
          })
        },
      },
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
    secrets,
    tokenFor,
    httpFor,
    subscribe(l) {
      listeners.add(l)
      return () => listeners.delete(l)
    },
    emit,
    info: {
      version: options.version,
      host: options.host,
      dataDir: layout.root,
      ...(listener ? { loopbackRedirectUri: listener.redirectUri } : {}),
      ...(encryptor.protection ? { masterKey: () => encryptor.protection!() } : {}),
    },
    async stop() {
      unRecord()
      listeners.clear()
      await listener?.stop()
      await http.close()
    },
  }
}
