import { describe, expect, it } from 'vitest'
import type { RegistrationForm } from '../../../../src-main/contract/api.ts'
import { createAppStore } from '../../../../src-renderer/store/store.ts'
import { fakeApi, manualTimers, settle } from '../support/fake-api.ts'

const defaults: RegistrationForm = {
  iss: 'sw-1',
  aud: 'https://auth',
  tokenEndpointAuthSigningAlg: 'PS256',
  redirectUris: ['https://tpp/cb'],
}

describe('registration slice', () => {
  it('loads the defaults, previews at once, then previews again only after typing stops (debounced)', async () => {
    const timers = manualTimers()
    const api = fakeApi({
      'registration.defaults': () => defaults,
      'registration.preview': ({ form }: { form: RegistrationForm }) => ({
        header: {},
        claims: {},
        checks: [
          {
            name: 'token_endpoint_auth_signing_alg',
            pass: form.tokenEndpointAuthSigningAlg === 'PS256',
            expected: 'PS256',
            actual: form.tokenEndpointAuthSigningAlg,
          },
        ],
        valid: form.tokenEndpointAuthSigningAlg === 'PS256',
      }),
    })
    const store = createAppStore(api, timers)
    await store.getState().registrationTarget('env', 'tpp')
    expect(store.getState().registration.form).toEqual(defaults)
    expect(store.getState().registration.preview?.valid).toBe(true)

    store.getState().updateRegistrationForm({ tokenEndpointAuthSigningAlg: 'R' })
    store.getState().updateRegistrationForm({ tokenEndpointAuthSigningAlg: 'RS' })
    store.getState().updateRegistrationForm({ tokenEndpointAuthSigningAlg: 'RS256' })
    expect(store.getState().registration.previewPending).toBe(true)
    expect(api.callsOf('registration.preview')).toHaveLength(1)
    timers.flush()
    await settle()
    expect(api.callsOf('registration.preview')).toHaveLength(2)
    expect(
      (api.callsOf('registration.preview')[1] as { form: RegistrationForm }).form.tokenEndpointAuthSigningAlg,
    ).toBe('RS256')
    expect(store.getState().registration.preview?.valid).toBe(false)
    expect(store.getState().registration.previewPending).toBe(false)
  })

  it('drops a late preview answer for an older form', async () => {
    const resolvers: Array<(v: unknown) => void> = []
    const api = fakeApi({
      'registration.defaults': () => defaults,
      'registration.preview': () => new Promise((r) => resolvers.push(r)),
    })
    const store = createAppStore(api, manualTimers())
    const target = store.getState().registrationTarget('env', 'tpp')
    await settle()
    const second = store.getState().previewRegistration()
    resolvers[1]!({ header: {}, claims: { newer: true }, checks: [], valid: true })
    await second
    resolvers[0]!({ header: {}, claims: { older: true }, checks: [], valid: false })
    await target
    expect(store.getState().registration.preview?.claims).toEqual({ newer: true })
  })

  it("register adds the client to the list and keeps the result; a refusal keeps the engine's sentences", async () => {
    const client = {
      clientId: 'c-9',
      environmentId: 'env',
      tppId: 'tpp',
      authMethod: 'private_key_jwt',
      scope: 'openid',
      redirectUris: [],
      registration: {},
      hasSecret: false,
      registeredAt: 'now',
    }
    let refuse = true
    const api = fakeApi({
      'registration.defaults': () => defaults,
      'registration.preview': () => ({ header: {}, claims: {}, checks: [], valid: true }),
      'registration.register': () => (refuse ? { ok: false } : { client, exchangeId: 'x-1' }),
    })
    const store = createAppStore(api, manualTimers())
    await store.getState().registrationTarget('env', 'tpp')
    refuse = false
    expect(await store.getState().register()).toEqual({ client, exchangeId: 'x-1' })
    expect(store.getState().clients.map((c) => c.clientId)).toEqual(['c-9'])
    expect(store.getState().registration.result?.exchangeId).toBe('x-1')
  })
})

describe('client management', () => {
  it('reads, updates with the form, and deletes a client, keeping the list in step', async () => {
    const c = (scope: string) => ({
      clientId: 'c-1',
      environmentId: 'env',
      tppId: 'tpp',
      authMethod: 'private_key_jwt' as const,
      scope,
      redirectUris: [],
      registration: {},
      hasSecret: false,
      registeredAt: 'now',
    })
    const api = fakeApi({
      'registration.defaults': () => defaults,
      'registration.preview': () => ({ header: {}, claims: {}, checks: [], valid: true }),
      'registration.read': () => ({ client: c('openid accounts'), exchangeId: 'x-get' }),
      'registration.update': () => ({ client: c('openid payments'), exchangeId: 'x-put' }),
      'registration.delete': () => ({ exchangeId: 'x-del' }),
    })
    const store = createAppStore(api, manualTimers())
    store.setState({ clients: [c('openid')] })
    await store.getState().registrationTarget('env', 'tpp')
    await store.getState().readClient('c-1')
    expect(store.getState().clients[0]!.scope).toBe('openid accounts')
    expect(store.getState().registration.result?.exchangeId).toBe('x-get')
    await store.getState().updateClient('c-1')
    expect(api.callsOf('registration.update')).toEqual([{ clientId: 'c-1', form: defaults }])
    expect(store.getState().clients[0]!.scope).toBe('openid payments')
    expect(await store.getState().deleteClient('c-1')).toBe(true)
    expect(store.getState().clients).toEqual([])
    expect(store.getState().registration.result).toBeUndefined()
  })
})
