import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { ContractHandlers } from '../contract/api.ts'
import { systemClock } from '../core/clock.ts'
import { appDataDir } from '../core/paths.ts'
import {
  defaultPkiTemplateDir,
  startLocalSandbox,
  storedClockOffsetMs,
  type RunningSandbox,
} from '../local-sandbox/index.ts'
import type { StringEncryptor } from '../certificates/secret-store.ts'
import {
  createConsoleServices,
  type ConsoleServices,
  type ConsoleServicesOptions,
} from '../services/console-services.ts'
import type { SettingsStore } from '../services/persistence/settings-store.ts'
import type { LocalSandboxPort } from '../services/environments-service.ts'
import { createHandlers } from '../services/handler-table.ts'
import type { RetryPolicy } from '../http/retry-policy.ts'
import { ConformanceLens } from '../conformance/conformance-lens.ts'
import { createHttpEngine } from '../services/http-engine.ts'
import { caBundleFile } from '../services/ca-bundle-file.ts'
import type { ExchangeDto } from '../contract/exchange.ts'
import type { CurlOptions } from '../http/curl.ts'
import { keptUtf8 } from '../http/exchange-view.ts'
import type { HandlerTable } from '../contract/transport.ts'
import type { WebHostOptions } from '../web-host/web-host.ts'

export interface ConsoleRuntimeOptions {
  /**
   * The console's data directory; `fresh` = a temporary one (its store, master key, keys and the sandbox's
   * PKI), removed at stop, when creating the runtime fails, and at the latest when the process exits.
   */
  dataDir?: string | 'fresh'
  /** The embedded sandbox's data directory (default `<dataDir>/local-sandbox`). */
  sandboxDataDir?: string
  /** Port of the embedded sandbox's {base_url} (0 = free ports). */
  sandboxPort?: number
  /** Port of the loopback redirect listener; 0 = free. */
  loopbackPort?: number
  host: 'web' | 'electron'
  log?: (line: string) => void
  pisPolling?: { intervalMs: number; maxWaitMs: number }
  /** Electron: electron-store. */
  settings?: SettingsStore
  /** Electron: the master-key encryptor whose key safeStorage wraps (certificates/master-key.ts). */
  encryptor?: StringEncryptor
  /** Electron: the auth window with redirect interception. */
  openAuthWindow?: ConsoleServicesOptions['openAuthWindow']
  /**
   * A local sandbox already running elsewhere (`ob-console sandbox` in another process, a CI service):
   * the local-sandbox environment uses its addresses and CA bundle, and no embedded sandbox is started
   * (`sandbox()` stays undefined; `stop()` leaves it running).
   */
  externalSandbox?: ExternalSandbox
  /** The largest response body read from any environment, in bytes (`--max-body-mib`); default: each environment's setting. */
  maxBodyBytes?: number
  /** The HTTP clients' retry policy (tests make its waits instant). */
  retry?: Partial<RetryPolicy>
  /**
   * Check every answer on this thread, large ones included (the command line: no window waits on the event
   * loop, and a worker thread would load and compile the schemas a second time). Default: a worker for bank
   * answers over 64 KiB.
   */
  lensOnThisThread?: boolean
}

/** The addresses and CA bundle of a local sandbox running outside this runtime. */
export interface ExternalSandbox {
  baseUrl: string
  authUrl: string
  directoryUrl: string
  caBundlePem: string
}

export interface ConsoleRuntime {
  services: ConsoleServices
  handlers: ContractHandlers
  sandbox(): RunningSandbox | undefined
  dataDir: string
  /** True for a throwaway data directory (removed at stop). */
  fresh: boolean
  /** The TLS files and trust a curl or HAR export of this exchange names (its environment's CA choice). */
  curlOptions(exchange: ExchangeDto): CurlOptions
  /**
   * What a web host serves of this runtime: the handler table, the events, and the kept bytes of the bodies
   * its views show as received (sent as they are, not decoded and encoded again: `keptUtf8`).
   */
  webHost: Pick<WebHostOptions, 'handlers' | 'subscribe' | 'utf8Of'>
  stop(): Promise<void>
}

export function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(resolve(import.meta.dirname, '../../package.json'), 'utf8')) as { version: string })
      .version
  } catch {
    return '0.0.0'
  }
}

/**
 * The console's main side as plain Node: services, handler table, the embedded local sandbox started on
 * demand, the HTTP engine. Used by the web host, the CLI and the Electron composition root alike.
 */
export async function createConsoleRuntime(options: ConsoleRuntimeOptions): Promise<ConsoleRuntime> {
  const fresh = options.dataDir === 'fresh'
  const dataDir = fresh ? mkdtempSync(join(tmpdir(), 'ob-console-')) : resolve(options.dataDir ?? appDataDir())
  if (!fresh) return createRuntimeIn(dataDir, false, options)
  const remove = () => {
    rmSync(dataDir, { recursive: true, force: true })
    throwaway.delete(dataDir)
  }
  throwaway.add(dataDir)
  if (!exitHooked) process.on('exit', removeThrowaway)
  exitHooked = true
  try {
    const rt = await createRuntimeIn(dataDir, true, options)
    const stop = rt.stop
    return {
      ...rt,
      stop: async () => {
        try {
          await stop()
        } finally {
          remove()
        }
      },
    }
  } catch (err) {
    remove()
    throw err
  }
}

/** The throwaway data directories of the runtimes still running in this process. */
const throwaway = new Set<string>()
let exitHooked = false

/** The last resort: an exit on any path (process.exit, a signal's handler, an uncaught error) removes them. */
function removeThrowaway(): void {
  for (const dir of throwaway) rmSync(dir, { recursive: true, force: true })
  throwaway.clear()
}

/**
 * The local sandbox as the console's services reach it: one already running elsewhere, or one embedded in this
 * process, started on first use (a throwaway one from the cached PKI template).
 */
function localSandbox(
  dataDir: string,
  fresh: boolean,
  options: ConsoleRuntimeOptions,
): { port: LocalSandboxPort; running: () => RunningSandbox | undefined; stop: () => Promise<void> } {
  let sandbox: RunningSandbox | undefined
  let starting: Promise<RunningSandbox> | undefined
  const external = options.externalSandbox
  const port: LocalSandboxPort = external
    ? {
        start: async () => ({ ...external }),
        current: () => ({ baseUrl: external.baseUrl, authUrl: external.authUrl, directoryUrl: external.directoryUrl }),
      }
    : {
        async start() {
          starting ??= startLocalSandbox({
            dataDir: options.sandboxDataDir ?? join(dataDir, 'local-sandbox'),
            port: options.sandboxPort ?? 0,
            // A throwaway sandbox takes the bank's keys and certificates from the cached template.
            ...(fresh && !options.sandboxDataDir ? { pkiTemplate: defaultPkiTemplateDir() } : {}),
            ...(options.log ? { log: options.log } : {}),
          })
          sandbox = await starting
          return {
            baseUrl: sandbox.baseUrl,
            authUrl: sandbox.authUrl,
            directoryUrl: sandbox.directoryUrl,
            caBundlePem: sandbox.caBundlePem,
          }
        },
        current: () =>
          sandbox
            ? { baseUrl: sandbox.baseUrl, authUrl: sandbox.authUrl, directoryUrl: sandbox.directoryUrl }
            : undefined,
        testPsus: () => sandbox?.psus,
        storedClockOffsetMs: () => storedClockOffsetMs(options.sandboxDataDir ?? join(dataDir, 'local-sandbox')),
      }
  return {
    port,
    running: () => sandbox,
    async stop() {
      await (starting?.catch(() => undefined) ?? Promise.resolve())
      await sandbox?.stop()
    },
  }
}

async function createRuntimeIn(
  dataDir: string,
  fresh: boolean,
  options: ConsoleRuntimeOptions,
): Promise<ConsoleRuntime> {
  const clock = systemClock()
  const local = localSandbox(dataDir, fresh, options)
  const port = local.port
  let servicesRef: ConsoleServices | undefined = undefined
  const curlOptions = (exchange: ExchangeDto): CurlOptions => {
    // A curl or HAR export trusts the bank's servers as the environment did: its exact CA bundle's file (the
    // embedded sandbox's own, else one written in the data directory), curl's store, or no verification.
    const env = exchange.environmentId
      ? servicesRef?.environments.list().find((e) => e.id === exchange.environmentId)
      : undefined
    if (!env) return exchange.tls?.verification === 'off' ? { trust: 'off' } : {}
    if (env.tlsVerification !== 'exact-ca') return { trust: env.tlsVerification }
    const sandbox = local.running()
    const caPath = env.kind === 'local-sandbox' && sandbox ? sandbox.caBundlePath : caBundleFile(dataDir, env)
    return { trust: 'exact-ca', ...(caPath ? { caPath } : {}) }
  }
  const http = createHttpEngine({
    clock,
    ...(options.lensOnThisThread ? { lens: new ConformanceLens({ workerThreshold: Number.POSITIVE_INFINITY }) } : {}),
    ...(options.maxBodyBytes !== undefined ? { maxBodyBytes: options.maxBodyBytes } : {}),
    ...(options.retry ? { retry: options.retry } : {}),
    extraOrigins: (env) => {
      const directoryUrl = env.kind === 'local-sandbox' ? port.current()?.directoryUrl : undefined
      return directoryUrl ? [directoryUrl] : []
    },
    curlPaths: curlOptions,
  })
  const services = await createConsoleServices({
    dataDir,
    host: options.host,
    version: packageVersion(),
    http,
    sandbox: port,
    ...(options.loopbackPort !== undefined ? { loopbackPort: options.loopbackPort } : {}),
    clock,
    ...(options.log ? { log: options.log } : {}),
    ...(options.pisPolling ? { pisPolling: options.pisPolling } : {}),
    ...(options.settings ? { settings: options.settings } : {}),
    ...(options.encryptor ? { encryptor: options.encryptor } : {}),
    ...(options.openAuthWindow ? { openAuthWindow: options.openAuthWindow } : {}),
  })
  servicesRef = services
  let stopping: Promise<void> | undefined
  const handlers = createHandlers(services, clock)
  return {
    services,
    handlers,
    sandbox: local.running,
    dataDir,
    fresh,
    curlOptions,
    webHost: { handlers: handlers as unknown as HandlerTable, subscribe: services.subscribe, utf8Of: keptUtf8 },
    stop() {
      // Once, however many callers (the command's end and a signal's clean-up): the sandbox stops even when the services fail to.
      stopping ??= (async () => {
        try {
          await services.stop()
        } finally {
          await local.stop()
        }
      })()
      return stopping
    },
  }
}
