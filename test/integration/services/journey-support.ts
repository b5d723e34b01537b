import type { ContractHandlers, FlowInput } from '../../../src-main/contract/api.ts'
import type { FlowState } from '../../../src-main/contract/flows.ts'
import {
  createConsoleRuntime,
  type ConsoleRuntime,
  type ConsoleRuntimeOptions,
} from '../../../src-main/cli/console-runtime.ts'

export type Ok<T> =
  { ok: true; value: T } | { ok: false; error: { code: string; what: string; cause: string; fix: string } }

/** The value of a contract result, or a test failure that shows the error's sentences. */
export function ok<T>(r: Ok<T>): T {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.what} | ${r.error.cause} | ${r.error.fix}`)
  return r.value
}

export async function freshRuntime(
  options: Pick<ConsoleRuntimeOptions, 'retry' | 'log'> = {},
): Promise<ConsoleRuntime> {
  return createConsoleRuntime({
    host: 'web',
    dataDir: 'fresh',
    loopbackPort: 0,
    log: () => undefined,
    pisPolling: { intervalMs: 50, maxWaitMs: 20_000 },
    ...options,
  })
}

/** Starts the embedded sandbox, onboards a TPP from its directory and registers a client with a sandbox profile. */
export async function registeredClient(
  h: ContractHandlers,
  profile: 'strict' | 'strict-headless' | 'permissive' | 'permissive-headless',
): Promise<{ environmentId: string; clientId: string; tppId: string }> {
  const env = ok(await h['environments.startLocalSandbox']())
  const tpp = ok(await h['tpps.onboardLocal']({ environmentId: env.id }))
  const defaults = ok(await h['registration.defaults']({ environmentId: env.id, tppId: tpp.id }))
  const permissive = profile.startsWith('permissive')
  const { client } = ok(
    await h['registration.register']({
      environmentId: env.id,
      tppId: tpp.id,
      form: {
        ...defaults,
        tokenEndpointAuthMethod: permissive ? 'client_secret_basic' : 'private_key_jwt',
        requestObjectSigningAlg: permissive ? 'none' : 'PS256',
        extraClaims: { sandbox_profile: profile },
      },
    }),
  )
  return { environmentId: env.id, clientId: client.clientId, tppId: tpp.id }
}

export const ALL_ACCOUNTS_PERMISSIONS = [
  'ReadAccountsDetail',
  'ReadBalances',
  'ReadTransactionsDetail',
  'ReadTransactionsCredits',
  'ReadTransactionsDebits',
  'ReadBeneficiariesDetail',
  'ReadDirectDebits',
  'ReadStandingOrdersDetail',
  'ReadOffers',
  'ReadStatementsDetail',
  'ReadParty',
  'ReadPartyPSU',
]

export async function startFlow(h: ContractHandlers, input: FlowInput): Promise<FlowState> {
  return ok(await h['flows.start'](input))
}

/** The AIS flow most journeys start: every account permission, the PSU present, headless capture, a PS256 request object. */
export function headlessAis(environmentId: string, clientId: string): FlowInput {
  return {
    kind: 'ais',
    environmentId,
    clientId,
    permissions: ALL_ACCOUNTS_PERMISSIONS,
    psuPresent: true,
    capture: 'headless',
    authorisationUrlFrom: 'request-object',
  }
}

/** Polls the flow until it waits for the PSU (bounded), and returns what it waits with. */
export async function untilAwaiting(h: ContractHandlers, flowId: string): Promise<NonNullable<FlowState['awaiting']>> {
  for (let i = 0; i < 400; i++) {
    const state = ok(await h['flows.get']({ flowId }))
    if (state.awaiting) return state.awaiting
    const failed = state.steps.find((s) => s.status === 'failed')
    if (failed) throw new Error(`step ${failed.id} failed before the PSU: ${JSON.stringify(failed.error)}`)
    await new Promise((r) => setTimeout(r, 25))
  }
  throw new Error('the flow never waited for the PSU')
}

export function stepStatuses(state: FlowState): Record<string, string> {
  return Object.fromEntries(state.steps.map((s) => [s.id, s.status]))
}
