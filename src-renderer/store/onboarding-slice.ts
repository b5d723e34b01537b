/**
 * The guided sandbox onboarding: from nothing to a registered client, an authorised AIS consent with its
 * data on screen, and a completed payment. On the embedded local sandbox every step is one click; on the
 * bank's sandbox the user picks the environment and their own TPP identity.
 */
import type { CaptureMode } from '../../src-main/contract/api.ts'
import { defaultCapture, sandboxProfile } from '../domain/capture.ts'
import { DEFAULT_AIS_PERMISSIONS } from '../../src-main/contract/ais-permissions.ts'
import { DEFAULT_PAYMENT, paymentInitiation } from '../domain/pis-defaults.ts'
import { flowComplete } from './flows-slice.ts'
import { runOp } from './ops.ts'
import type { GetState, SetState, SliceDeps } from './types.ts'

export interface GuideState {
  target: 'local' | 'bank'
  environmentId?: string
  tppId?: string
  clientId?: string
  /** The exchange of the registration, for the inspector link. */
  registrationExchangeId?: string
  /** How the test PSU approves: at once (headless) or on the sandbox's login pages in a browser tab. */
  capture: CaptureMode
  aisFlowId?: string
  pisFlowId?: string
  /** The PSU's IP address for a bank other than the local sandbox (sent as x-fapi-customer-ip-address). */
  psuIp?: string
}

export interface OnboardingSlice {
  guide: GuideState
  guideSetTarget(target: 'local' | 'bank'): void
  guideChoose(patch: { environmentId?: string; tppId?: string; clientId?: string; psuIp?: string }): void
  guideSetCapture(capture: CaptureMode): void
  guideStartLocal(): Promise<void>
  guideOnboardTpp(): Promise<void>
  guideRegister(): Promise<void>
  guideRunAis(): Promise<void>
  guideRunPis(): Promise<void>
  /** Picks up where an earlier session stopped (the local sandbox, its identity and client). */
  guideResume(): void
}

function patchGuide(set: SetState, p: Partial<GuideState>): void {
  set((s) => ({ guide: { ...s.guide, ...p } }))
}

/** The environment the guide works in. */
function guideEnvironment(get: GetState) {
  return get().environments.find((e) => e.id === get().guide.environmentId)
}

function guideSetTarget({ set, get }: SliceDeps, target: 'local' | 'bank'): void {
  patchGuide(set, {
    target,
    environmentId: undefined,
    tppId: undefined,
    clientId: undefined,
    aisFlowId: undefined,
    pisFlowId: undefined,
    registrationExchangeId: undefined,
    capture: target === 'local' ? 'headless' : defaultCapture(get().host, 'bank-sandbox'),
  })
  if (target === 'local') get().guideResume()
}

function guideChoose({ set, get }: SliceDeps, p: Parameters<OnboardingSlice['guideChoose']>[0]): void {
  const g = get().guide
  const envChanged = p.environmentId !== undefined && p.environmentId !== g.environmentId
  patchGuide(set, {
    ...p,
    ...(envChanged ? { clientId: p.clientId, aisFlowId: undefined, pisFlowId: undefined } : {}),
    ...(envChanged
      ? { capture: defaultCapture(get().host, get().environments.find((e) => e.id === p.environmentId)?.kind) }
      : {}),
  })
}

function guideSetCapture({ set, get }: SliceDeps, capture: CaptureMode): void {
  const g = get().guide
  const client = get().clients.find((c) => c.clientId === g.clientId)
  // On the local sandbox, headless or not is fixed at registration: a different choice needs a new client.
  const profile = client?.registration['sandbox_profile']
  const mismatch =
    guideEnvironment(get)?.kind === 'local-sandbox' &&
    typeof profile === 'string' &&
    profile.endsWith('-headless') !== (capture === 'headless')
  patchGuide(set, { capture, ...(mismatch ? { clientId: undefined, aisFlowId: undefined, pisFlowId: undefined } : {}) })
}

async function guideRegister({ set, get, api }: SliceDeps): Promise<void> {
  const { environmentId, tppId, capture } = get().guide
  if (!environmentId || !tppId) return
  const defaults = await runOp(set, 'guide.register', () => api.call('registration.defaults', { environmentId, tppId }))
  if (!defaults) return
  const form =
    guideEnvironment(get)?.kind === 'local-sandbox'
      ? {
          ...defaults,
          extraClaims: {
            ...defaults.extraClaims,
            sandbox_profile: sandboxProfile(defaults, capture === 'headless'),
          },
        }
      : defaults
  const result = await runOp(set, 'guide.register', () =>
    api.call('registration.register', { environmentId, tppId, form }),
  )
  if (!result) return
  set((s) => ({ clients: [...s.clients.filter((c) => c.clientId !== result.client.clientId), result.client] }))
  patchGuide(set, {
    clientId: result.client.clientId,
    registrationExchangeId: result.exchangeId,
    aisFlowId: undefined,
    pisFlowId: undefined,
  })
  // As `ob-console onboard` does: the client the guide registers is the environment's current one.
  await get().setCurrentClient(environmentId, result.client.clientId)
}

async function guideRunAis({ set, get }: SliceDeps): Promise<void> {
  const { environmentId, clientId, capture, psuIp } = get().guide
  if (!environmentId || !clientId) return
  const flow = await get().startFlow({
    kind: 'ais',
    environmentId,
    clientId,
    permissions: [...DEFAULT_AIS_PERMISSIONS],
    psuPresent: true,
    capture,
    authorisationUrlFrom: 'request-object',
    ...(psuIp?.trim() ? { psuIpAddress: psuIp.trim() } : {}),
  })
  if (!flow) return
  patchGuide(set, { aisFlowId: flow.id })
  const done = await get().runAll(flow.id)
  if (done && flowComplete(done) && !get().accountData[flow.id]) await get().loadAccountData(flow.id)
}

async function guideRunPis({ set, get }: SliceDeps): Promise<void> {
  const { environmentId, clientId, capture } = get().guide
  if (!environmentId || !clientId) return
  const { initiation, risk } = paymentInitiation(DEFAULT_PAYMENT)
  const flow = await get().startFlow({
    kind: 'pis',
    environmentId,
    clientId,
    initiation,
    risk,
    capture,
    authorisationUrlFrom: 'request-object',
  })
  if (!flow) return
  patchGuide(set, { pisFlowId: flow.id })
  await get().runAll(flow.id)
}

function guideResume({ set, get }: SliceDeps): void {
  const g = get().guide
  if (g.target !== 'local') return
  const local = get().environments.find((e) => e.kind === 'local-sandbox')
  if (!local) return
  const tppId = g.tppId ?? local.tppId ?? get().clients.find((c) => c.environmentId === local.id)?.tppId
  const wantHeadless = g.capture === 'headless'
  const client = g.clientId
    ? get().clients.find((c) => c.clientId === g.clientId)
    : [...get().clients]
        .reverse()
        .find(
          (c) =>
            c.environmentId === local.id &&
            c.tppId === tppId &&
            String(c.registration['sandbox_profile'] ?? '').endsWith('-headless') === wantHeadless,
        )
  patchGuide(set, { environmentId: local.id, tppId, clientId: client?.clientId })
}

export function onboardingSlice(deps: SliceDeps): OnboardingSlice {
  const { set, get } = deps
  return {
    guide: { target: 'local', capture: 'headless' },
    guideSetTarget: (target) => guideSetTarget(deps, target),
    guideChoose: (p) => guideChoose(deps, p),
    guideSetCapture: (capture) => guideSetCapture(deps, capture),
    async guideStartLocal() {
      const e = await get().startLocalSandbox()
      if (!e) return
      patchGuide(set, { environmentId: e.id })
      get().guideResume()
    },
    async guideOnboardTpp() {
      const environmentId = get().guide.environmentId
      if (!environmentId) return
      const tpp = await get().onboardLocal(environmentId, 'Local sandbox TPP')
      if (tpp) patchGuide(set, { tppId: tpp.id })
    },
    guideRegister: () => guideRegister(deps),
    guideRunAis: () => guideRunAis(deps),
    guideRunPis: () => guideRunPis(deps),
    guideResume: () => guideResume(deps),
  }
}
