import type { parseArgs } from 'node:util'
import type { CaptureMode } from '../contract/api.ts'
import type { FlowProgress, FlowState } from '../contract/flows.ts'
import { AppError } from '../core/app-error.ts'
import { DEFAULT_AIS_PERMISSIONS } from '../contract/ais-permissions.ts'
import { examplePayment } from '../flows/pis/pis-flow.ts'
import { CAPTURE_STEP } from '../flows/common/authorisation.ts'
import { createConsoleRuntime, type ConsoleRuntime } from './console-runtime.ts'
import { reportError, UsageError } from './cli-support.ts'
import { conformanceReport, type ConformanceReport } from './conformance-report.ts'
import { currentClient, resolveEnvironment, setCurrentClient, unwrap } from './cli-context.ts'
import { DEFAULT_LOOPBACK_PORT } from '../services/console-services.ts'
import { JOURNEY_USAGE } from './usage.ts'
import { EXPORT_OPTIONS, exportTargets, finishJourneyExports } from './journey-exports.ts'
import type { ExportTargets } from '../services/run-exports.ts'
import { InteractiveLogin, shouldOpenBrowser } from './interactive-login.ts'
import { onStopSignals } from './stop-signals.ts'
import { URL_LINE_LIMIT, writeErr, writeErrLine, writeJsonOut, writeOut } from '../plumbing/terminal-out.ts'
import { terminalLine as one } from '../plumbing/terminal-text.ts'
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

const OPTIONS = {
  env: { type: 'string' },
  client: { type: 'string' },
  headless: { type: 'boolean' },
  'psu-absent': { type: 'boolean' },
  permissions: { type: 'string' },
  amount: { type: 'string' },
  'auth-method': { type: 'string' },
  'data-dir': { type: 'string' },
  'loopback-port': { type: 'string' },
  'max-body-mib': { type: 'string' },
  paste: { type: 'boolean' },
  'no-open': { type: 'boolean' },
  'psu-ip': { type: 'string' },
  'consent-expiry': { type: 'string' },
  json: { type: 'boolean' },
  ...EXPORT_OPTIONS,
  strict: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; strict: true; allowPositionals: false }>>['values']

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
  const current = kind === 'onboard' ? undefined : currentClient(rt, env.id)
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

/**
 * A finished step as the step log prints it. The summary and the error may quote the bank: each is one line
 * with its control characters (newlines included) escaped.
 */
export function stepLine(p: FlowProgress): string | undefined {
  const s = p.step
  if (s.status === 'running') return undefined
  const mark = s.status === 'done' ? '✓' : s.status === 'failed' ? '✗' : '-'
  const head = `${mark} ${one(s.title)}${s.ms !== undefined ? ` (${s.ms} ms)` : ''}${s.summary ? `: ${one(s.summary)}` : ''}`
  if (s.status !== 'failed' || !s.error) return head
  const where = s.error.exchangeId ? ` (exchange ${s.error.exchangeId})` : ''
  return `${head}\n    ${one(s.error.what)}\n    cause: ${one(s.error.cause)}\n    fix:   ${one(s.error.fix)}\n    code:  ${s.error.code}${where}`
}

/** Each step of the run for `--json`: a failed one with its coded error (code, what, cause, fix, step, exchangeId). */
function stepsJson(state: FlowState) {
  return state.steps.map((s) => ({
    name: s.id,
    status: s.status,
    ms: s.ms ?? 0,
    ...(s.status === 'failed' && s.error ? { error: s.error } : {}),
  }))
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
  let rt: ConsoleRuntime | undefined
  let report: ConformanceReport | undefined
  const targets: ExportTargets = flags.targets
  let run: { flowId?: string; environmentId?: string } = {}
  let login: InteractiveLogin | undefined
  // Ctrl+C and SIGTERM stop the servers and remove a throwaway sandbox and store before the exit (130, 143).
  const offSignals = onStopSignals(
    async () => {
      login?.stop()
      report?.stop()
      await rt?.stop()
    },
    { note: writeErrLine },
  )
  try {
    const loopbackPort = flags.loopbackPort ?? (v.headless || v.paste ? 0 : undefined)
    const maxBodyMib = flags.maxBodyMib
    rt = await createConsoleRuntime({
      host: 'web',
      // A fresh store only for a one-off journey against the local sandbox; onboard and named clients keep theirs.
      dataDir: v['data-dir'] ?? (v.env === 'local' && kind !== 'onboard' && !v.client ? 'fresh' : undefined),
      ...(loopbackPort !== undefined ? { loopbackPort } : {}),
      ...(maxBodyMib !== undefined ? { maxBodyBytes: maxBodyMib * 1024 * 1024 } : {}),
      log: writeErrLine,
      lensOnThisThread: true,
    })
    report = conformanceReport(rt, { strict: !!v.strict, say })
    const lens = report
    const capture: CaptureMode = v.headless ? 'headless' : v.paste ? 'pasted' : 'loopback'
    if (capture === 'loopback' && kind !== 'onboard' && !rt.services.info.loopbackRedirectUri) {
      const wanted = v['loopback-port'] ?? String(DEFAULT_LOOPBACK_PORT)
      throw new AppError('INVALID_INPUT', {
        what: `The redirect listener could not start on 127.0.0.1:${wanted}.`,
        cause: `Port ${wanted} is in use (another ob-console, or another program).`,
        fix: 'Stop the other program, or run with --loopback-port N (a client registered with http://127.0.0.1:N/callback), or --paste to paste the URL the browser returns to, or --headless (local sandbox).',
      })
    }
    const prepared = await prepare(rt, v, say, kind)
    run = { environmentId: prepared.environmentId }
    if (kind === 'onboard') {
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
    if (capture === 'loopback') {
      const listening = rt.services.info.loopbackRedirectUri!
      const client = rt.services.registration.record(prepared.clientId)
      if (!client.redirectUris.includes(listening))
        throw new AppError('INVALID_INPUT', {
          what: `Client ${prepared.clientId} is not registered with the listener's redirect URI ${listening}.`,
          cause: `Its redirect URIs are ${client.redirectUris.join(', ') || 'none'}.`,
          fix: 'Use --loopback-port with the port of a registered http://127.0.0.1:PORT/callback, add the URI with ob-console dcr update --redirect-uri, or use --paste.',
        })
    }
    const common = {
      environmentId: prepared.environmentId,
      clientId: prepared.clientId,
      capture,
      authorisationUrlFrom: 'request-object' as const,
    }
    const expiresIn = flags.consentExpirySeconds
    if (expiresIn !== undefined) await rt.services.clocks.refresh(prepared.environmentId)
    const flow = unwrap(
      await rt.handlers['flows.start'](
        kind === 'ais'
          ? {
              kind: 'ais',
              ...common,
              permissions: flags.permissions ?? [...DEFAULT_AIS_PERMISSIONS],
              psuPresent: !v['psu-absent'],
              ...(v['psu-ip'] ? { psuIpAddress: v['psu-ip'] } : {}),
              ...(expiresIn !== undefined
                ? {
                    expirationDateTime: new Date(
                      rt.services.clocks.now(prepared.environmentId) + expiresIn * 1000,
                    ).toISOString(),
                  }
                : {}),
            }
          : (() => {
              const pay = examplePayment()
              if (v.amount) (pay.initiation.InstructedAmount as { Amount: string }).Amount = v.amount
              return { kind: 'pis' as const, ...common, ...pay }
            })(),
      ),
    )
    run.flowId = flow.id
    const handlers = rt.handlers
    if (capture === 'loopback' || capture === 'pasted')
      login = new InteractiveLogin({
        mode: capture,
        json: !!v.json,
        open: shouldOpenBrowser(v['no-open']),
        localSandbox: v.env === 'local',
        // The authorisation URL (or its JSON line) must be copied whole: a longer cut than other lines.
        say: (line) => say(line, URL_LINE_LIMIT),
        terminal: v.json ? process.stderr : process.stdout,
        capture: (url) => handlers['flows.capture']({ flowId: flow.id, url }),
        input: () => process.stdin,
      })
    // Step lines and each step's violations in order: a step's violations follow its line once checked.
    let printing = Promise.resolve()
    const off = rt.services.subscribe((e) => {
      if (e.name !== 'flows.onDidProgress') return
      const p = e.payload as FlowProgress
      if (p.flowId !== flow.id) return
      const line = stepLine(p)
      if (line) {
        const ids = [...p.step.exchangeIds]
        printing = printing.then(async () => {
          say(line)
          await lens.afterStep(ids)
        })
      }
      // The flow waits for the PSU: the event of the step marked as waiting says where to send them.
      const awaiting =
        p.step.status === 'running' && p.step.id === CAPTURE_STEP ? rt!.services.flows.get(flow.id).awaiting : undefined
      if (login && awaiting) printing = printing.then(() => login!.announce(awaiting))
    })
    const running = rt.handlers['flows.runAll']({ flowId: flow.id })
    const state = unwrap(await (login ? Promise.race([running, login.abandoned]) : running))
    login?.stop()
    off()
    await printing
    const checked = await lens.finish()
    const failed = state.steps.find((s) => s.status === 'failed')
    const output = (id: string) => state.steps.find((s) => s.id === id)?.output as Record<string, unknown> | undefined
    if (kind === 'ais') {
      const data = rt.services.flows.accountData(flow.id)
      const result = {
        clientId: prepared.clientId,
        consentId: (output('consent') as { consentId?: string } | undefined)?.consentId,
        accounts: data.map((a) => ({
          accountId: a.accountId,
          accountTypeCode: a.accountTypeCode,
          transactions: a.transactions.total,
          pages: a.transactions.pages,
        })),
        steps: stepsJson(state),
        ...(failed?.error ? { error: failed.error } : {}),
        conformance: checked.entries,
      }
      if (v.json) writeJsonOut(result)
      else
        say(
          `\n${result.accounts.map((a) => `${one(String(a.accountId))} (${one(String(a.accountTypeCode))}): ${a.transactions} transactions in ${a.pages} pages`).join('\n')}`,
        )
    } else {
      const status = output('payment-status') as { domesticPaymentId?: string; status?: string } | undefined
      const payment = output('domestic-payment') as { domesticPaymentId?: string; status?: string } | undefined
      const result = {
        clientId: prepared.clientId,
        consentId: (output('payment-consent') as { consentId?: string } | undefined)?.consentId,
        payment: {
          domesticPaymentId: status?.domesticPaymentId ?? payment?.domesticPaymentId,
          status: status?.status ?? payment?.status,
        },
        steps: stepsJson(state),
        ...(failed?.error ? { error: failed.error } : {}),
        conformance: checked.entries,
      }
      if (v.json) writeJsonOut(result)
      else say(`\npayment ${one(result.payment.domesticPaymentId ?? '-')}: ${one(result.payment.status ?? 'not made')}`)
    }
    return lens.exitCode(failed ? 1 : 0, checked.violations)
  } catch (err) {
    return reportError(err, JOURNEY_USAGE)
  } finally {
    login?.stop()
    report?.stop()
    if (rt) await finishJourneyExports(rt, { kind, ...run, keep: !rt.fresh }, targets, say)
    await rt?.stop()
    offSignals()
  }
}
