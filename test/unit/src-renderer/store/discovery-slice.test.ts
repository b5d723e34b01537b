import { describe, expect, it } from 'vitest'
import type { RegistrationForm } from '../../../../src-main/contract/api.ts'
import { preflightClaims } from '../../../../src-renderer/store/discovery-slice.ts'
import { createAppStore } from '../../../../src-renderer/store/store.ts'
import { fakeApi, manualTimers } from '../support/fake-api.ts'
import { client } from '../support/fixtures.ts'

const claims = (alg: string, jti = 'j-1') => ({
  iss: 'sw-1',
  jti,
  iat: 1,
  request_object_signing_alg: alg,
  scope: 'openid accounts',
})

function api(alg: () => string) {
  return fakeApi({
    'registration.defaults': () => ({}) as RegistrationForm,
    'registration.preview': () => ({
      header: {},
      claims: claims(alg(), String(Math.random())),
      checks: [],
      valid: true,
    }),
    'discovery.view': ({ claims: c }: { claims: Record<string, unknown> }) => ({
      url: 'https://auth/.well-known/openid-configuration',
      exchangeId: 'x-d',
      issuer: 'https://auth',
      endpoints: {},
      algorithms: {},
      tokenEndpointAuthMethods: [],
      grantTypes: [],
      responseTypes: [],
      scopes: [],
      claims: [],
      document: {},
      checks: [
        { name: "issuer is the environment's auth URL", pass: true, expected: 'a', actual: 'a' },
        {
          name: 'registered request_object_signing_alg',
          pass: c.request_object_signing_alg !== 'RS256',
          expected: 'x',
          actual: 'y',
        },
      ],
    }),
    'registration.register': () => ({ client: client('c-1', 'strict'), exchangeId: 'x-r' }),
    'clients.setCurrent': () => undefined,
  })
}

describe('discovery slice: the registration pre-flight', () => {
  it("sends only the claims discovery speaks of (not jti or iat), and keeps only the registration's checks", async () => {
    expect(preflightClaims(claims('PS256'))).toEqual({ request_object_signing_alg: 'PS256', scope: 'openid accounts' })
    const a = api(() => 'PS256')
    const store = createAppStore(a, manualTimers())
    const p = await store.getState().runPreflight('env', claims('PS256'))
    expect(a.callsOf('discovery.view')).toEqual([
      { environmentId: 'env', claims: { request_object_signing_alg: 'PS256', scope: 'openid accounts' } },
    ])
    expect(p?.checks.map((c) => c.name)).toEqual(['registered request_object_signing_alg'])
  })

  it('a send runs the pre-flight once per set of claims, stops on a mismatch, and sends (marking the client current) when all pass', async () => {
    let alg = 'RS256'
    const a = api(() => alg)
    const store = createAppStore(a, manualTimers())
    await store.getState().registrationTarget('env', 'tpp')
    expect(await store.getState().sendRegistration()).toBe(false)
    expect(a.callsOf('registration.register')).toHaveLength(0)
    // The preview's jti changes; the pre-flight's claims do not: no second discovery read.
    await store.getState().previewRegistration()
    expect(await store.getState().sendRegistration()).toBe(false)
    expect(a.callsOf('discovery.view')).toHaveLength(1)
    alg = 'PS256'
    await store.getState().previewRegistration()
    expect(await store.getState().sendRegistration()).toBe(true)
    expect(a.callsOf('discovery.view')).toHaveLength(2)
    expect(a.callsOf('registration.register')).toEqual([{ environmentId: 'env', tppId: 'tpp', form: {} }])
    expect(store.getState().currentClients).toEqual({ env: 'c-1' })
  })

  it('send anyway goes out without the pre-flight, flagged for the main side', async () => {
    const a = api(() => 'RS256')
    const store = createAppStore(a, manualTimers())
    await store.getState().registrationTarget('env', 'tpp')
    await store.getState().register({ sendAnyway: true })
    expect(a.callsOf('registration.register')).toEqual([
      { environmentId: 'env', tppId: 'tpp', form: {}, sendAnyway: true },
    ])
    expect(a.callsOf('discovery.view')).toHaveLength(0)
  })
})
