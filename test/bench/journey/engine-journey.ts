/**
 * The console engine's side of P1 and P2: the journey of `journey.ts` through the console's own code,
 * the runtime the CLI and the web host build (`createConsoleRuntime`: services -> flows -> http + signing),
 * pointed at the bench's sandbox process (`externalSandbox`), driven through the contract's handler table
 * as the UI drives it.
 *
 * Untimed, once: the runtime, `environments.startLocalSandbox` (the external sandbox's addresses and CA),
 * `tpps.onboardLocal` (a starter kit from the sandbox's directory, roles AISP and PISP), the registration
 * form's defaults. Untimed, before each journey: the engine's HTTP clients are closed, so the journey opens
 * its own connections (one TLS handshake per origin) as the floor's new agents do, and the exchange log is
 * cleared, so the journey's calls are counted from it.
 *
 * Timed: `registration.register` of a new client (private_key_jwt, PS256 request objects,
 * `sandbox_profile: strict-headless`, the defaults' scope `openid accounts payments`); the AIS flow
 * (`flows.start` + `flows.runAll`) with the journey's permissions, PSU present, headless capture and a PS256
 * request object (with these permissions the other-resources step makes no call); the PIS flow with the
 * journey's payment, run to the payment (`flows.runAll` until `domestic-payment`), then, after
 * `target.beforeStatus()` (the sandbox clock moves; untimed), the `payment-status` step, whose first read is
 * final. Each flow begins with discovery and reads the bank's JWKS when it first checks a signature, as the
 * console's flows do; the floor and the curl peer make the same two reads before their PIS part.
 *
 * Untimed, after each journey: the work the engine holds for the pauses of its requests is done (the lens's
 * checks, `exchanges.conformanceSettled`; the history's and the state's writes, their `flushed()`), so none is
 * left to run in the next floor journey's time or to be dropped by the next journey's clear; the worker's CPU
 * figure includes it, and the journey reports how long it took (`afterMs`, P1-after).
 */
import { createConsoleRuntime, type ConsoleRuntime } from '../../../src-main/cli/console-runtime.ts'
import type { ContractHandlers } from '../../../src-main/contract/api.ts'
import type { FlowState } from '../../../src-main/contract/flows.ts'
import { journeyMark, paymentConsentBody, timedPart, type JourneyResult, type JourneyTarget } from './journey.ts'
import { AIS_PERMISSIONS, HISTORY_TO, PSU_IP } from './session.ts'

export interface EngineJourneyTarget extends JourneyTarget {
  directoryUrl: string
  caBundlePem: string
  caBundlePath: string
}

export interface EngineJourney {
  run(target: EngineJourneyTarget): Promise<JourneyResult>
  /**
   * Opens the data view of the last journey's AIS flow (`ais.accountData`): its transaction rows are built
   * then, from the pages in the exchange log, not during the journey. Untimed by P1; reported beside it.
   */
  dataView(): Promise<{ ms: number; rows: number }>
  close(): Promise<void>
}

type Result<T> =
  { ok: true; value: T } | { ok: false; error: { code: string; what: string; cause: string; fix: string } }

function ok<T>(r: Result<T>, what: string): T {
  if (!r.ok)
    throw new Error(`engine journey, ${what}: ${r.error.code}: ${r.error.what} ${r.error.cause} ${r.error.fix}`)
  return r.value
}

/** Throws naming the first step that neither passed nor was skipped. */
function allPassed(state: FlowState, what: string, until?: string): void {
  const steps = until ? state.steps.slice(0, state.steps.findIndex((s) => s.id === until) + 1) : state.steps
  const bad = steps.find((s) => s.status !== 'done' && s.status !== 'skipped')
  if (bad)
    throw new Error(
      `engine journey, ${what}: step ${bad.id} is ${bad.status}${bad.error ? `: ${bad.error.what} ${bad.error.cause}` : ''}`,
    )
}

/** Signatures the flows checked and found valid: ID tokens, and the PIS responses' x-jws-signature. */
function verifiedSignatures(...states: FlowState[]): number {
  return states
    .flatMap((s) => s.steps)
    .flatMap((s) => s.checks)
    .filter((c) => (c.name === 'signature' || c.name === 'response signature') && c.pass).length
}

interface Setup {
  rt: ConsoleRuntime
  h: ContractHandlers
  environmentId: string
  tppId: string
  form: Record<string, unknown>
}

/** The engine's journey runner (setup on the first run, against that run's target). */
export async function engineJourney(): Promise<EngineJourney> {
  let setup: Promise<Setup> | undefined
  let lastAisFlow: string | undefined

  async function prepare(target: EngineJourneyTarget): Promise<Setup> {
    const rt = await createConsoleRuntime({
      host: 'web',
      dataDir: 'fresh',
      loopbackPort: 0,
      log: () => undefined,
      externalSandbox: {
        baseUrl: target.baseUrl,
        authUrl: target.authUrl,
        directoryUrl: target.directoryUrl,
        caBundlePem: target.caBundlePem,
      },
    })
    const h = rt.handlers
    const env = ok(await h['environments.startLocalSandbox'](), 'local sandbox environment')
    const tpp = ok(await h['tpps.onboardLocal']({ environmentId: env.id }), 'onboarding')
    const defaults = ok(
      await h['registration.defaults']({ environmentId: env.id, tppId: tpp.id }),
      'registration defaults',
    )
    return {
      rt,
      h,
      environmentId: env.id,
      tppId: tpp.id,
      form: {
        ...defaults,
        tokenEndpointAuthMethod: 'private_key_jwt',
        requestObjectSigningAlg: 'PS256',
        extraClaims: { sandbox_profile: 'strict-headless' },
      },
    }
  }

  return {
    async run(target) {
      setup ??= prepare(target)
      const { rt, h, environmentId, tppId, form } = await setup
      // New connections for each journey, as the floor's; the lens's worker thread stays, as in a console that runs on.
      await rt.services.http.dropConnections()
      rt.services.http.exchanges.clear()

      const t0 = journeyMark()
      const { client } = ok(await h['registration.register']({ environmentId, tppId, form }), 'registration')
      const ais = ok(
        await h['flows.start']({
          kind: 'ais',
          environmentId,
          clientId: client.clientId,
          permissions: AIS_PERMISSIONS,
          transactionToDateTime: HISTORY_TO,
          psuPresent: true,
          psuIpAddress: PSU_IP,
          capture: 'headless',
          authorisationUrlFrom: 'request-object',
        }),
        'AIS flow start',
      )
      const aisState = ok(await h['flows.runAll']({ flowId: ais.id }), 'AIS flow')
      allPassed(aisState, 'AIS flow')
      const payment = paymentConsentBody()
      const pis = ok(
        await h['flows.start']({
          kind: 'pis',
          environmentId,
          clientId: client.clientId,
          initiation: payment.Data.Initiation,
          risk: payment.Risk,
          capture: 'headless',
          authorisationUrlFrom: 'request-object',
        }),
        'PIS flow start',
      )
      const upToPayment = ok(await h['flows.runAll']({ flowId: pis.id, until: 'domestic-payment' }), 'PIS flow')
      allPassed(upToPayment, 'PIS flow', 'domestic-payment')
      const t1 = journeyMark()
      await target.beforeStatus()
      const t2 = journeyMark()
      const final = ok(await h['flows.runStep']({ flowId: pis.id, stepId: 'payment-status' }), 'payment status')
      const t3 = journeyMark()
      // Untimed, as no request waits for it: the work the engine holds for a quiet moment (the lens's checks of this
      // journey's answers, the flow history's and the console state's writes) is done here, so none runs in the next
      // floor journey's time or is dropped by the next journey's clear (the worker's CPU time counts it).
      await rt.services.http.exchanges.conformanceSettled()
      await Promise.all([rt.services.history.flushed(), rt.services.state.flushed()])
      const t4 = performance.now()

      const status = final.steps.find((s) => s.id === 'payment-status')!
      if (status.status !== 'done')
        throw new Error(
          `engine journey, payment status: ${status.status} ${status.error?.what ?? ''} ${status.error?.cause ?? ''}`,
        )
      lastAisFlow = ais.id
      // What the flow read, as its steps report it (the data view's rows are built when it is opened: dataView()).
      const accounts =
        (aisState.steps.find((s) => s.id === 'accounts')?.output as { accounts?: unknown[] } | undefined)?.accounts ??
        []
      const read = Object.values(
        (aisState.steps.find((s) => s.id === 'transactions')?.output ?? {}) as Record<
          string,
          { total: number; pages: number }
        >,
      )
      return {
        ...timedPart(t0, t1, t2, t3),
        afterMs: t4 - t3.wall,
        clockMoveMs: t2.wall - t1.wall,
        calls: ok(await h['exchanges.list']({ limit: 1 }), 'exchange log').total,
        accounts: accounts.length,
        transactions: read.reduce((n, a) => n + a.total, 0),
        pages: read.reduce((n, a) => n + a.pages, 0),
        paymentStatus: String((status.output as { status?: string } | undefined)?.status),
        verified: verifiedSignatures(aisState, final),
      }
    },
    async dataView() {
      const s = await setup
      if (!s || !lastAisFlow) throw new Error('engine journey: no journey has run, so there is no data view to open')
      const t0 = performance.now()
      const data = ok(await s.h['ais.accountData']({ flowId: lastAisFlow }), 'account data')
      const ms = performance.now() - t0
      return { ms, rows: data.reduce((n, a) => n + a.transactions.items.length, 0) }
    },
    async close() {
      const s = await setup?.catch(() => undefined)
      await s?.rt.stop()
    },
  }
}
