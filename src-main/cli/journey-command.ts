import { writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import type { CaptureMode } from '../contract/api.ts'
import type { FlowProgress, FlowState } from '../contract/flows.ts'
import { AppError } from '../core/app-error.ts'
import { DEFAULT_AIS_PERMISSIONS } from '../flows/ais/permissions.ts'
import { examplePayment } from '../flows/pis/pis-flow.ts'
import { createConsoleRuntime, type ConsoleRuntime } from './console-runtime.ts'
import { reportError, UsageError } from './cli-support.ts'
import { JOURNEY_USAGE } from './usage.ts'

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
  json: { type: 'boolean' },
  har: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; strict: true; allowPositionals: false }>>['values']

function unwrap<T>(result: { ok: true; value: T } | { ok: false; error: { code: string; what: string; cause: string; fix: string } }): T {
  if (result.ok) return result.value
  throw new AppError(result.error.code as never, result.error)
}

interface PreparedClient {
  environmentId: string
  clientId: string
}

/** The environment and client a journey runs as: for `--env local`, a TPP onboarded and a client registered. */
async function prepare(rt: ConsoleRuntime, v: Values, say: (line: string) => void): Promise<PreparedClient> {
  const h = rt.handlers
  if (!v.env) throw new UsageError('--env is required (local, or the id or name of a saved environment)')
  if (v.env !== 'local') {
    const envs = unwrap(await h['environments.list']())
    const env = envs.find((e) => e.id === v.env || e.name === v.env)
    if (!env) throw new UsageError(`no environment "${v.env}" (saved: ${envs.map((e) => e.name).join(', ') || 'none'})`)
    if (!v.client) throw new UsageError(`--client is required with --env ${v.env}: the id of a client registered there`)
    return { environmentId: env.id, clientId: v.client }
  }
  const env = unwrap(await h['environments.startLocalSandbox']())
  say(`local sandbox: ${env.baseUrl} (auth ${env.authUrl})`)
  if (v.client) return { environmentId: env.id, clientId: v.client }
  const tpp = unwrap(await h['tpps.onboardLocal']({ environmentId: env.id }))
  say(`onboarded TPP: org ${tpp.orgId}, software ${tpp.softwareId}`)
  const method = v['auth-method'] ?? 'private_key_jwt'
  if (method !== 'private_key_jwt' && method !== 'client_secret_basic') throw new UsageError(`--auth-method must be private_key_jwt or client_secret_basic, got "${method}"`)
  const defaults = unwrap(await h['registration.defaults']({ environmentId: env.id, tppId: tpp.id }))
  const permissive = method === 'client_secret_basic'
  const profile = `${permissive ? 'permissive' : 'strict'}${v.headless ? '-headless' : ''}`
  const { client } = unwrap(await h['registration.register']({
    environmentId: env.id,
    tppId: tpp.id,
    form: { ...defaults, tokenEndpointAuthMethod: method, requestObjectSigningAlg: permissive ? 'none' : 'PS256', extraClaims: { sandbox_profile: profile } },
  }))
  say(`registered client ${client.clientId} (${method}, sandbox profile ${profile})`)
  return { environmentId: env.id, clientId: client.clientId }
}

function stepLine(p: FlowProgress): string | undefined {
  const s = p.step
  if (s.status === 'running') return undefined
  const mark = s.status === 'done' ? '✓' : s.status === 'failed' ? '✗' : '-'
  const head = `${mark} ${s.title}${s.ms !== undefined ? ` (${s.ms} ms)` : ''}${s.summary ? `: ${s.summary}` : ''}`
  if (s.status !== 'failed' || !s.error) return head
  return `${head}\n    ${s.error.what}\n    cause: ${s.error.cause}\n    fix:   ${s.error.fix}`
}

function stepsJson(state: FlowState) {
  return state.steps.map((s) => ({ name: s.id, status: s.status, ms: s.ms ?? 0 }))
}

/**
 * Writes the run's exchanges as HAR, masked as the inspector shows them (the same views: nothing secret
 * was revealed in a CLI run). Readable by the user alone: it names the bank's addresses and the client.
 */
function writeHar(rt: ConsoleRuntime, file: string, say: (line: string) => void): void {
  const path = resolve(file)
  try {
    const har = rt.services.http.exchanges.har()
    writeFileSync(path, har + '\n', { mode: 0o600 })
    say(`HAR written to ${path} (${(JSON.parse(har) as { log: { entries: unknown[] } }).log.entries.length} exchanges; tokens and codes masked, private keys removed)`)
  } catch (err) {
    process.stderr.write(`ob-console: the HAR could not be written to ${path}: ${(err as Error).message}. Check the folder exists and is writable.\n`)
  }
}

/** `ob-console onboard|ais|pis`: the journeys of the bank's spec through the console engine. */
export async function runJourneyCommand(kind: 'onboard' | 'ais' | 'pis', argv: string[]): Promise<number> {
  let v: Values
  try {
    v = parseArgs({ args: argv, options: OPTIONS, strict: true, allowPositionals: false }).values
  } catch (err) {
    return reportError(new UsageError((err as Error).message.split('\n')[0]!), JOURNEY_USAGE)
  }
  if (v.help) {
    process.stdout.write(JOURNEY_USAGE)
    return 0
  }
  const say = (line: string) => (v.json ? process.stderr : process.stdout).write(line + '\n')
  let rt: ConsoleRuntime | undefined
  try {
    if (!v.env) throw new UsageError('--env is required (local, or the id or name of a saved environment)')
    const loopbackPort = v['loopback-port'] !== undefined ? Number(v['loopback-port']) : v.headless ? 0 : undefined
    const maxBodyMib = v['max-body-mib']
    if (maxBodyMib !== undefined && (!/^\d{1,4}$/.test(maxBodyMib) || Number(maxBodyMib) < 1 || Number(maxBodyMib) > 4096)) throw new UsageError(`--max-body-mib must be a whole number of MiB from 1 to 4096, got "${maxBodyMib}"`)
    rt = await createConsoleRuntime({
      host: 'web',
      dataDir: v['data-dir'] ?? (v.env === 'local' ? 'fresh' : undefined),
      ...(loopbackPort !== undefined ? { loopbackPort } : {}),
      ...(maxBodyMib !== undefined ? { maxBodyBytes: Number(maxBodyMib) * 1024 * 1024 } : {}),
      log: (l) => process.stderr.write(l + '\n'),
    })
    const prepared = await prepare(rt, v, say)
    if (kind === 'onboard') {
      if (v.json) process.stdout.write(JSON.stringify({ clientId: prepared.clientId, environmentId: prepared.environmentId, dataDir: rt.dataDir }) + '\n')
      return 0
    }
    const capture: CaptureMode = v.headless ? 'headless' : 'loopback'
    const common = { environmentId: prepared.environmentId, clientId: prepared.clientId, capture, authorisationUrlFrom: 'request-object' as const }
    const flow = unwrap(await rt.handlers['flows.start'](kind === 'ais'
      ? { kind: 'ais', ...common, permissions: v.permissions ? v.permissions.split(',').map((p) => p.trim()) : DEFAULT_AIS_PERMISSIONS, psuPresent: !v['psu-absent'] }
      : (() => {
          const pay = examplePayment()
          if (v.amount) {
            if (!/^\d{1,13}(\.\d{1,5})?$/.test(v.amount)) throw new UsageError(`--amount must look like 10.00, got "${v.amount}"`)
            ;(pay.initiation.InstructedAmount as { Amount: string }).Amount = v.amount
          }
          return { kind: 'pis' as const, ...common, ...pay }
        })()))
    const off = rt.services.subscribe((e) => {
      if (e.name !== 'flows.onDidProgress') return
      const p = e.payload as FlowProgress
      if (p.flowId !== flow.id) return
      const line = stepLine(p)
      if (line) say(line)
      if (p.step.status === 'running' && p.step.id === 'capture' && capture === 'loopback') {
        const state = rt!.services.flows.get(flow.id)
        if (state.awaiting?.authorisationUrl) say(`Open this URL in a browser and log in as a test PSU (e.g. amelia / amelia-sandbox):\n  ${state.awaiting.authorisationUrl}`)
      }
    })
    const state = unwrap(await rt.handlers['flows.runAll']({ flowId: flow.id }))
    off()
    const failed = state.steps.find((s) => s.status === 'failed')
    const output = (id: string) => state.steps.find((s) => s.id === id)?.output as Record<string, unknown> | undefined
    if (kind === 'ais') {
      const data = rt.services.flows.accountData(flow.id)
      const result = {
        clientId: prepared.clientId,
        consentId: (output('consent') as { consentId?: string } | undefined)?.consentId,
        accounts: data.map((a) => ({ accountId: a.accountId, accountTypeCode: a.accountTypeCode, transactions: a.transactions.total, pages: a.transactions.pages })),
        steps: stepsJson(state),
      }
      if (v.json) process.stdout.write(JSON.stringify(result) + '\n')
      else say(`\n${result.accounts.map((a) => `${a.accountId} (${a.accountTypeCode}): ${a.transactions} transactions in ${a.pages} pages`).join('\n')}`)
    } else {
      const status = output('payment-status') as { domesticPaymentId?: string; status?: string } | undefined
      const payment = output('domestic-payment') as { domesticPaymentId?: string; status?: string } | undefined
      const result = {
        clientId: prepared.clientId,
        consentId: (output('payment-consent') as { consentId?: string } | undefined)?.consentId,
        payment: { domesticPaymentId: status?.domesticPaymentId ?? payment?.domesticPaymentId, status: status?.status ?? payment?.status },
        steps: stepsJson(state),
      }
      if (v.json) process.stdout.write(JSON.stringify(result) + '\n')
      else say(`\npayment ${result.payment.domesticPaymentId ?? '-'}: ${result.payment.status ?? 'not made'}`)
    }
    return failed ? 1 : 0
  } catch (err) {
    return reportError(err, JOURNEY_USAGE)
  } finally {
    if (rt && v.har) writeHar(rt, v.har, say)
    await rt?.stop()
  }
}
