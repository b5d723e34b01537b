import { describe, expect, it } from 'vitest'
import type { RegistrationForm } from '../../../../src-main/contract/api.ts'
import { createAppStore } from '../../../../src-renderer/store/store.ts'
import { fakeApi } from '../support/fake-api.ts'
import { client, flow, localEnv, step, tpp } from '../support/fixtures.ts'

function guideApi() {
  let started = false
  return fakeApi({
    'app.info': () => ({
      version: '0.1.0',
      host: 'web',
      dataDir: '/tmp/x',
      localSandbox: { baseUrl: 'b', authUrl: 'a', directoryUrl: 'd' },
    }),
    'environments.list': () => (started ? [localEnv] : []),
    'tpps.list': () => [],
    'clients.list': () => [],
    'flows.list': () => ({ flows: [], more: 0 }),
    'environments.startLocalSandbox': () => {
      started = true
      return localEnv
    },
    'tpps.onboardLocal': () => tpp,
    'registration.defaults': () => ({
      tokenEndpointAuthMethod: 'private_key_jwt',
      requestObjectSigningAlg: 'none',
      extraClaims: { contacts: ['a@b'] },
    }),
    'registration.register': ({ form }: { form: RegistrationForm }) => ({
      client: client('c-1', String(form.extraClaims?.sandbox_profile)),
      exchangeId: 'x-reg',
    }),
    'flows.start': (input: { kind: 'ais' | 'pis' }) => flow(`${input.kind}-1`, input.kind, [step('consent')]),
    'flows.runAll': ({ flowId }: { flowId: string }) =>
      flow(flowId, flowId.startsWith('ais') ? 'ais' : 'pis', [step('consent', 'done')]),
    'ais.accountData': () => [{ accountId: 'acc-1' }],
    'ais.budget': () => [],
  })
}

describe('the first screen', () => {
  it('is the guide without a client, unless the user went to a view while the console was connecting', async () => {
    const first = createAppStore(guideApi())
    await first.getState().boot()
    expect(first.getState().view).toBe('guide')
    const early = createAppStore(guideApi())
    const booting = early.getState().boot()
    early.getState().navigate('inspector')
    await booting
    expect(early.getState()).toMatchObject({ booted: true, view: 'inspector' })
  })
})

describe('guided onboarding on the local sandbox', () => {
  it('starts on the guide, then sandbox, identity, headless client, AIS with data, payment', async () => {
    const api = guideApi()
    const store = createAppStore(api)
    await store.getState().boot()
    expect(store.getState().view).toBe('guide')
    const s = () => store.getState()
    await s().guideStartLocal()
    expect(s().guide.environmentId).toBe('local-sandbox')
    await s().guideOnboardTpp()
    expect(s().guide.tppId).toBe('tpp-1')
    await s().guideRegister()
    const sent = api.callsOf('registration.register')[0] as { form: RegistrationForm }
    // Headless capture: the sandbox profile asks for the headless variant, other extra claims kept.
    expect(sent.form.extraClaims).toEqual({ contacts: ['a@b'], sandbox_profile: 'permissive-headless' })
    expect(s().guide).toMatchObject({ clientId: 'c-1', registrationExchangeId: 'x-reg' })

    await s().guideRunAis()
    const aisInput = api.callsOf('flows.start')[0] as Record<string, unknown>
    expect(aisInput).toMatchObject({
      kind: 'ais',
      environmentId: 'local-sandbox',
      clientId: 'c-1',
      capture: 'headless',
      psuPresent: true,
    })
    expect(aisInput.permissions as string[]).toContain('ReadAccountsDetail')
    expect(s().accountData['ais-1']).toEqual([{ accountId: 'acc-1' }])

    await s().guideRunPis()
    const pisInput = api.callsOf('flows.start')[1] as { initiation: Record<string, unknown>; capture: string }
    expect(pisInput.capture).toBe('headless')
    expect(pisInput.initiation).toMatchObject({
      InstructedAmount: { Amount: '10.00', Currency: 'GBP' },
      LocalInstrument: 'UK.OBIE.FPS',
    })
    expect(s().guide.pisFlowId).toBe('pis-1')
  })

  it('choosing the PSU login pages after a headless registration asks for a new (non-headless) client', async () => {
    const api = guideApi()
    const store = createAppStore(api)
    store.setState({
      environments: [localEnv],
      clients: [client('c-h', 'permissive-headless')],
      guide: { target: 'local', environmentId: 'local-sandbox', tppId: 'tpp-1', clientId: 'c-h', capture: 'headless' },
    })
    store.getState().guideSetCapture('loopback')
    expect(store.getState().guide.clientId).toBeUndefined()
    await store.getState().guideRegister()
    expect(
      (api.callsOf('registration.register')[0] as { form: RegistrationForm }).form.extraClaims?.sandbox_profile,
    ).toBe('permissive')
  })

  it('resumes with the local sandbox, its identity and the client that fits the capture', () => {
    const store = createAppStore(guideApi())
    store.setState({
      environments: [{ ...localEnv, tppId: 'tpp-1' }],
      clients: [client('c-page', 'strict'), client('c-head', 'strict-headless')],
    })
    store.getState().guideResume()
    expect(store.getState().guide).toMatchObject({ environmentId: 'local-sandbox', tppId: 'tpp-1', clientId: 'c-head' })
  })

  it('stays off the views when the console cannot be reached, with the error kept', async () => {
    const store = createAppStore(fakeApi({}))
    await store.getState().boot()
    expect(store.getState().booted).toBe(false)
    expect(store.getState().ops['app.info']?.error?.code).toBe('NOT_FOUND')
  })
})
