import type { CaptureMode, FlowInput } from '../contract/api.ts'
import { DEFAULT_AIS_PERMISSIONS } from '../contract/ais-permissions.ts'
import type { FlowProgress, FlowState } from '../contract/flows.ts'
import { CAPTURE_STEP } from '../flows/common/authorisation.ts'
import { examplePayment } from '../flows/pis/pis-flow.ts'
import { writeJsonOut } from '../plumbing/terminal-out.ts'
import { terminalLine as one } from '../plumbing/terminal-text.ts'
import { unwrap } from './cli-context.ts'
import type { ConformanceEntry, ConformanceReport } from './conformance-report.ts'
import type { ConsoleRuntime } from './console-runtime.ts'
import type { InteractiveLogin } from './interactive-login.ts'

type Say = (line: string, limit?: number) => void

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

/** What the journey's flags say of the flow to start (AIS: permissions, PSU present or not; PIS: the amount). */
export interface JourneyFlowFlags {
  permissions: string[] | undefined
  psuAbsent: boolean
  psuIp: string | undefined
  amount: string | undefined
  /** The AIS consent's ExpirationDateTime (`--consent-expiry`, on the bank's clock). */
  expirationDateTime?: string
}

/** The `flows.start` input of an AIS or PIS journey of the client, the authorisation URL by request object. */
export function journeyFlowInput(
  kind: 'ais' | 'pis',
  client: { environmentId: string; clientId: string },
  capture: CaptureMode,
  flags: JourneyFlowFlags,
): FlowInput {
  const common = { ...client, capture, authorisationUrlFrom: 'request-object' as const }
  if (kind === 'ais')
    return {
      kind: 'ais',
      ...common,
      permissions: flags.permissions ?? [...DEFAULT_AIS_PERMISSIONS],
      psuPresent: !flags.psuAbsent,
      ...(flags.psuIp ? { psuIpAddress: flags.psuIp } : {}),
      ...(flags.expirationDateTime ? { expirationDateTime: flags.expirationDateTime } : {}),
    }
  const pay = examplePayment()
  if (flags.amount) (pay.initiation.InstructedAmount as { Amount: string }).Amount = flags.amount
  return { kind: 'pis' as const, ...common, ...pay }
}

/**
 * Runs every step of the flow, printing each finished step's line and then its violations, in order, and telling
 * the PSU where to go when the flow waits for them; answers the flow's last state.
 */
export async function followFlow(
  rt: ConsoleRuntime,
  flowId: string,
  lens: ConformanceReport,
  say: Say,
  login: InteractiveLogin | undefined,
): Promise<FlowState> {
  // Step lines and each step's violations in order: a step's violations follow its line once checked.
  let printing = Promise.resolve()
  const off = rt.services.subscribe((e) => {
    if (e.name !== 'flows.onDidProgress') return
    const p = e.payload as FlowProgress
    if (p.flowId !== flowId) return
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
      p.step.status === 'running' && p.step.id === CAPTURE_STEP ? rt.services.flows.get(flowId).awaiting : undefined
    if (login && awaiting) printing = printing.then(() => login.announce(awaiting))
  })
  const running = rt.handlers['flows.runAll']({ flowId })
  const state = unwrap(await (login ? Promise.race([running, login.abandoned]) : running))
  login?.stop()
  off()
  await printing
  return state
}

/** How a journey ended, for its printing: the flow's last state and the conformance entries of its exchanges. */
export interface JourneyEnd {
  clientId: string
  flowId: string
  state: FlowState
  conformance: ConformanceEntry[]
}

function outputOf(state: FlowState, id: string): Record<string, unknown> | undefined {
  return state.steps.find((s) => s.id === id)?.output as Record<string, unknown> | undefined
}

function failedError(state: FlowState) {
  const failed = state.steps.find((s) => s.status === 'failed')
  return failed?.error ? { error: failed.error } : {}
}

/** An AIS journey's outcome: its consent and each account's transactions (JSON, or a line per account). */
export function printAisOutcome(rt: ConsoleRuntime, end: JourneyEnd, json: boolean, say: Say): void {
  const data = rt.services.flows.accountData(end.flowId)
  const result = {
    clientId: end.clientId,
    consentId: (outputOf(end.state, 'consent') as { consentId?: string } | undefined)?.consentId,
    accounts: data.map((a) => ({
      accountId: a.accountId,
      accountTypeCode: a.accountTypeCode,
      transactions: a.transactions.total,
      pages: a.transactions.pages,
    })),
    steps: stepsJson(end.state),
    ...failedError(end.state),
    conformance: end.conformance,
  }
  if (json) writeJsonOut(result)
  else
    say(
      `\n${result.accounts.map((a) => `${one(String(a.accountId))} (${one(String(a.accountTypeCode))}): ${a.transactions} transactions in ${a.pages} pages`).join('\n')}`,
    )
}

/** A PIS journey's outcome: its consent and the payment's id and status (JSON, or one line). */
export function printPisOutcome(end: JourneyEnd, json: boolean, say: Say): void {
  const status = outputOf(end.state, 'payment-status') as { domesticPaymentId?: string; status?: string } | undefined
  const payment = outputOf(end.state, 'domestic-payment') as { domesticPaymentId?: string; status?: string } | undefined
  const result = {
    clientId: end.clientId,
    consentId: (outputOf(end.state, 'payment-consent') as { consentId?: string } | undefined)?.consentId,
    payment: {
      domesticPaymentId: status?.domesticPaymentId ?? payment?.domesticPaymentId,
      status: status?.status ?? payment?.status,
    },
    steps: stepsJson(end.state),
    ...failedError(end.state),
    conformance: end.conformance,
  }
  if (json) writeJsonOut(result)
  else say(`\npayment ${one(result.payment.domesticPaymentId ?? '-')}: ${one(result.payment.status ?? 'not made')}`)
}
