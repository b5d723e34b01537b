import type { parseArgs } from 'node:util'
import type { CaptureMode } from '../contract/api.ts'
import { AppError } from '../core/app-error.ts'
import { createConsoleRuntime, type ConsoleRuntime } from './console-runtime.ts'
import { reportError, UsageError } from './cli-support.ts'
import { conformanceReport, type ConformanceReport } from './conformance-report.ts'
import { currentClient, resolveEnvironment, setCurrentClient, unwrap } from './cli-context.ts'
import { DEFAULT_LOOPBACK_PORT } from '../services/console-services.ts'
import { JOURNEY_USAGE } from './usage.ts'
import { exportTargets, finishJourneyExports } from './journey-exports.ts'
import { JOURNEY_OPTIONS, onboardsNewTpp } from './journey-flags.ts'
import type { ExportTargets } from '../services/run-exports.ts'
import { InteractiveLogin, shouldOpenBrowser } from './interactive-login.ts'
import { followFlow, journeyFlowInput, printAisOutcome, printPisOutcome } from './journey-run.ts'
import { onStopSignals } from './stop-signals.ts'
import { URL_LINE_LIMIT, writeErr, writeErrLine, writeJsonOut, writeOut } from '../plumbing/terminal-out.ts'
import { checkCommonFlags } from './cli-context.ts'
import {
  amountFlag,
  choiceFlag,
  consentExpiryFlag,
  intFlag,
  ipFlag,
  outputFile,
  parseFlags,
  permissionsFlag,
  portFlag,
} from './flags.ts'

const AUTH_METHODS = ['private_key_jwt', 'client_secret_basic'] as const

export { JOURNEY_USAGE }

const OPTIONS = JOURNEY_OPTIONS

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; strict: true; allowPositionals: false }>>['values']

type Say = (line: string, limit?: number) => void

interface PreparedClient {
  environmentId: string
  clientId: string
}

/** The environment and client a journey runs as: for `--env local`, a TPP onboarded and a client registered. */
async function prepare(
  rt: ConsoleRuntime,
  v: Values,
  say: (line: string) => void,
  kind: 'onboard' | 'ais' | 'pis',
): Promise<PreparedClient> {
  const h = rt.handlers
  if (!v.env) throw new UsageError('--env is required (local, the name of a saved environment, or an environment file)')
  if (v.env !== 'local') {
    if (kind === 'onboard')
      throw new UsageError(
        'onboard works with --env local only: for the bank, import your identity with an environment file and run ob-console dcr register',
      )
    const { env, clientId: fileClient } = await resolveEnvironment(rt, v.env, say)
    const clientId = v.client ?? currentClient(rt, env.id) ?? fileClient
    if (!clientId)
      throw new UsageError(
        `--client is required with --env ${v.env}: no client is marked current there (register one with ob-console dcr register, or name it in the environment file)`,
      )
    return { environmentId: env.id, clientId }
  }
  const env = unwrap(await h['environments.startLocalSandbox']())
  say(`local sandbox: ${env.baseUrl} (auth ${env.authUrl})`)
  if (v.client) return { environmentId: env.id, clientId: v.client }
  const current = onboardsNewTpp(kind, v) ? undefined : currentClient(rt, env.id)
  if (current) {
    say(`client ${current} (the current client of the local sandbox in ${rt.dataDir})`)
    return { environmentId: env.id, clientId: current }
  }
  const tpp = unwrap(await h['tpps.onboardLocal']({ environmentId: env.id }))
  say(`onboarded TPP: org ${tpp.orgId}, software ${tpp.softwareId}`)
  const method = v['auth-method'] ?? 'private_key_jwt'
  const defaults = unwrap(await h['registration.defaults']({ environmentId: env.id, tppId: tpp.id }))
  const permissive = method === 'client_secret_basic'
  const profile = `${permissive ? 'permissive' : 'strict'}${v.headless ? '-headless' : ''}`
  const { client } = unwrap(
    await h['registration.register']({
      environmentId: env.id,
      tppId: tpp.id,
      form: {
        ...defaults,
        tokenEndpointAuthMethod: method,
        requestObjectSigningAlg: permissive ? 'none' : 'PS256',
        extraClaims: { sandbox_profile: profile },
      },
    }),
  )
  say(`registered client ${client.clientId} (${method}, sandbox profile ${profile})`)
  setCurrentClient(rt, env.id, client.clientId)
  return { environmentId: env.id, clientId: client.clientId }
}

/** The flag values of a journey, checked before any work (no store opened, no sandbox started). */
interface Checked {
  loopbackPort: number | undefined
  maxBodyMib: number | undefined
  permissions: string[] | undefined
  consentExpirySeconds?: number
  targets: ExportTargets
}

function checkFlags(kind: 'onboard' | 'ais' | 'pis', v: Values): Checked {
  if (!v.env)
    throw new UsageError(
      '--env is required',
      'Give --env local (the local sandbox), the name of a saved environment, or an environment file.',
    )
  checkCommonFlags(v)
  const only = (flag: keyof Values & string, kinds: string[]) => {
    if (v[flag] !== undefined && !kinds.includes(kind))
      throw new UsageError(`--${flag} does not apply to ${kind}`, `Use --${flag} with ${kinds.join(' or ')} only.`)
  }
  only('permissions', ['ais'])
  only('psu-absent', ['ais'])
  only('psu-ip', ['ais'])
  only('consent-expiry', ['ais'])
  only('amount', ['pis'])
  if (v['auth-method'] !== undefined) choiceFlag('auth-method', v['auth-method'], AUTH_METHODS)
  if ([v.headless, v.paste, v['loopback-port'] !== undefined].filter(Boolean).length > 1)
    throw new UsageError(
      'choose one of --headless, --paste and --loopback-port',
      'Give one way the PSU returns: --headless (local sandbox), --paste, or --loopback-port N.',
    )
  if (v['psu-absent'] && v['psu-ip'])
    throw new UsageError(
      '--psu-ip is the address of a PSU who is present; it cannot go with --psu-absent',
      'Leave out --psu-ip or --psu-absent.',
    )
  if (v['psu-ip'] !== undefined) ipFlag('psu-ip', v['psu-ip'])
  if (v.amount !== undefined) amountFlag('amount', v.amount)
  const loopbackPort = v['loopback-port'] !== undefined ? portFlag('loopback-port', v['loopback-port']) : undefined
  const maxBodyMib =
    v['max-body-mib'] !== undefined
      ? intFlag('max-body-mib', v['max-body-mib'], 1, 4096, 'a whole number of MiB')
      : undefined
  const permissions = v.permissions !== undefined ? permissionsFlag('permissions', v.permissions) : undefined
  // The export files, checked before the run: their folder exists and is writable, they are not folders.
  if (v.har !== undefined) outputFile('har', v.har)
  if (v.postman !== undefined) outputFile('postman', v.postman)
  if (v['postman-env'] !== undefined) outputFile('postman-env', v['postman-env'])
  const expiry = v['consent-expiry'] !== undefined ? consentExpiryFlag(v['consent-expiry']) : undefined
  return { loopbackPort, maxBodyMib, permissions, targets: exportTargets(v), consentExpirySeconds: expiry }
}

/** What a journey holds while it runs, for its stop (a signal, an error or the end) to undo. */
interface JourneySession {
  rt?: ConsoleRuntime
  report?: ConformanceReport
  login?: InteractiveLogin
  run: { flowId?: string; environmentId?: string }
}

/** The console runtime of a journey: a fresh store only for a one-off journey against the local sandbox. */
function openRuntime(kind: 'onboard' | 'ais' | 'pis', v: Values, flags: Checked): Promise<ConsoleRuntime> {
  const loopbackPort = flags.loopbackPort ?? (v.headless || v.paste ? 0 : undefined)
  const maxBodyMib = flags.maxBodyMib
  return createConsoleRuntime({
    host: 'web',
    // A fresh store only for a one-off journey against the local sandbox; onboard and named clients keep theirs.
    dataDir: v['data-dir'] ?? (v.env === 'local' && kind !== 'onboard' && !v.client ? 'fresh' : undefined),
    ...(loopbackPort !== undefined ? { loopbackPort } : {}),
    ...(maxBodyMib !== undefined ? { maxBodyBytes: maxBodyMib * 1024 * 1024 } : {}),
    log: writeErrLine,
    lensOnThisThread: true,
  })
}

/** Loopback capture needs the redirect listener up. */
function checkListening(rt: ConsoleRuntime, v: Values): void {
  if (rt.services.info.loopbackRedirectUri) return
  const wanted = v['loopback-port'] ?? String(DEFAULT_LOOPBACK_PORT)
  throw new AppError('INVALID_INPUT', {
    what: `The redirect listener could not start on 127.0.0.1:${wanted}.`,
    cause: `Port ${wanted} is in use (another ob-console, or another program).`,
    fix: 'Stop the other program, or run with --loopback-port N (a client registered with http://127.0.0.1:N/callback), or --paste to paste the URL the browser returns to, or --headless (local sandbox).',
  })
}

/** Loopback capture needs the client registered with the listener's redirect URI. */
function checkLoopbackClient(rt: ConsoleRuntime, clientId: string): void {
  const listening = rt.services.info.loopbackRedirectUri!
  const client = rt.services.registration.record(clientId)
  if (!client.redirectUris.includes(listening))
    throw new AppError('INVALID_INPUT', {
      what: `Client ${clientId} is not registered with the listener's redirect URI ${listening}.`,
      cause: `Its redirect URIs are ${client.redirectUris.join(', ') || 'none'}.`,
      fix: 'Use --loopback-port with the port of a registered http://127.0.0.1:PORT/callback, add the URI with ob-console dcr update --redirect-uri, or use --paste.',
    })
}

/** `onboard`'s end: the client kept, where (JSON, or one line). */
async function finishOnboard(
  rt: ConsoleRuntime,
  v: Values,
  prepared: PreparedClient,
  lens: ConformanceReport,
  say: Say,
) {
  const checked = await lens.finish()
  const onboarded = {
    clientId: prepared.clientId,
    environmentId: prepared.environmentId,
    dataDir: rt.dataDir,
    conformance: checked.entries,
  }
  if (v.json) writeJsonOut(onboarded)
  else
    say(
      `client ${prepared.clientId} is kept in ${rt.dataDir}${v['data-dir'] ? '' : " (the console's data directory)"}; pass the same --data-dir to later commands`,
    )
  return lens.exitCode(0, checked.violations)
}

/** The PSU's login of an interactive journey: the authorisation URL said (and opened), the returned URL captured. */
function interactiveLogin(rt: ConsoleRuntime, v: Values, mode: 'loopback' | 'pasted', flowId: string, say: Say) {
  const handlers = rt.handlers
  return new InteractiveLogin({
    mode,
    json: !!v.json,
    open: shouldOpenBrowser(v['no-open']),
    localSandbox: v.env === 'local',
    // The authorisation URL (or its JSON line) must be copied whole: a longer cut than other lines.
    say: (line) => say(line, URL_LINE_LIMIT),
    terminal: v.json ? process.stderr : process.stdout,
    capture: (url) => handlers['flows.capture']({ flowId, url }),
    input: () => process.stdin,
  })
}

/** The journey itself, once its flags are checked: the runtime, the client, the flow run and its outcome. */
async function runJourney(
  kind: 'onboard' | 'ais' | 'pis',
  v: Values,
  flags: Checked,
  say: Say,
  session: JourneySession,
): Promise<number> {
  const rt = (session.rt = await openRuntime(kind, v, flags))
  const lens = (session.report = conformanceReport(rt, { strict: !!v.strict, say }))
  const capture: CaptureMode = v.headless ? 'headless' : v.paste ? 'pasted' : 'loopback'
  if (capture === 'loopback' && kind !== 'onboard') checkListening(rt, v)
  const prepared = await prepare(rt, v, say, kind)
  session.run = { environmentId: prepared.environmentId }
  if (kind === 'onboard') return finishOnboard(rt, v, prepared, lens, say)
  if (capture === 'loopback') checkLoopbackClient(rt, prepared.clientId)
  const expiresIn = flags.consentExpirySeconds
  // The consent's expiry on the bank's clock (the local sandbox's may have been moved forward).
  if (expiresIn !== undefined) await rt.services.clocks.refresh(prepared.environmentId)
  const flowFlags = {
    permissions: flags.permissions,
    psuAbsent: !!v['psu-absent'],
    psuIp: v['psu-ip'],
    amount: v.amount,
    ...(expiresIn !== undefined
      ? {
          expirationDateTime: new Date(rt.services.clocks.now(prepared.environmentId) + expiresIn * 1000).toISOString(),
        }
      : {}),
  }
  const flow = unwrap(await rt.handlers['flows.start'](journeyFlowInput(kind, prepared, capture, flowFlags)))
  session.run.flowId = flow.id
  if (capture === 'loopback' || capture === 'pasted') session.login = interactiveLogin(rt, v, capture, flow.id, say)
  const state = await followFlow(rt, flow.id, lens, say, session.login)
  const checked = await lens.finish()
  const end = { clientId: prepared.clientId, flowId: flow.id, state, conformance: checked.entries }
  if (kind === 'ais') printAisOutcome(rt, end, !!v.json, say)
  else printPisOutcome(end, !!v.json, say)
  const failed = state.steps.find((s) => s.status === 'failed')
  return lens.exitCode(failed ? 1 : 0, checked.violations)
}

/** `ob-console onboard|ais|pis`: the journeys of the bank's spec through the console engine. */
export async function runJourneyCommand(kind: 'onboard' | 'ais' | 'pis', argv: string[]): Promise<number> {
  let v: Values
  let flags: Checked
  try {
    v = parseFlags(argv, OPTIONS).values
    if (v.help) {
      writeOut(JOURNEY_USAGE)
      return 0
    }
    flags = checkFlags(kind, v)
  } catch (err) {
    return reportError(err, JOURNEY_USAGE)
  }
  // Through the terminal writers: control characters escaped, long lines cut (an authorisation URL is kept whole).
  const say = (line: string, limit?: number) => (v.json ? writeErr : writeOut)(line + '\n', limit)
  const session: JourneySession = { run: {} }
  // Ctrl+C and SIGTERM stop the servers and remove a throwaway sandbox and store before the exit (130, 143).
  const offSignals = onStopSignals(
    async () => {
      session.login?.stop()
      session.report?.stop()
      await session.rt?.stop()
    },
    { note: writeErrLine },
  )
  try {
    return await runJourney(kind, v, flags, say, session)
  } catch (err) {
    return reportError(err, JOURNEY_USAGE)
  } finally {
    session.login?.stop()
    session.report?.stop()
    const rt = session.rt
    if (rt) await finishJourneyExports(rt, { kind, ...session.run, keep: !rt.fresh }, flags.targets, say)
    await rt?.stop()
    offSignals()
  }
}
