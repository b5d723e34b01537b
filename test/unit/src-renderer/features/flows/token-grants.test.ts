// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { TokenGrants, tokenGrantWords } from '../../../../../src-renderer/features/flows/token-grants.tsx'
import { createAppStore } from '../../../../../src-renderer/store/store.ts'
import { fakeApi } from '../../support/fake-api.ts'
import { flow, step } from '../../support/fixtures.ts'
import { el, renderWithStore } from '../../support/render.ts'

afterEach(cleanup)

const sandboxDiscovery = {
  grant_types_supported: ['authorization_code', 'client_credentials', 'refresh_token'],
  token_endpoint_auth_methods_supported: ['private_key_jwt', 'client_secret_basic'],
}

describe('token grants on the code exchange', () => {
  it('says what discovery advertises, with the OpenID defaults where it is silent, and that tls_client_auth is not offered', () => {
    const w = tokenGrantWords(sandboxDiscovery)
    expect(w).toMatchObject({ refresh: true, tlsClientAuth: false })
    expect(w.text).toContain('tls_client_auth is not offered by this bank')
    expect(tokenGrantWords({})).toMatchObject({
      grants: ['authorization_code', 'implicit'],
      methods: ['client_secret_basic'],
      refresh: false,
    })
    expect(tokenGrantWords({ token_endpoint_auth_methods_supported: ['tls_client_auth'] }).text).toContain(
      'tls_client_auth is offered',
    )
  })

  it('refreshes where advertised; says why not where not', async () => {
    const exchange = step('code-exchange', 'done', { output: { accessToken: 'eyJ…', refreshToken: 'rt…' } })
    const api = fakeApi({
      'flows.refreshToken': () => ({
        flow: flow('f1', 'ais', [
          step('discovery', 'done', { output: sandboxDiscovery }),
          { ...exchange, summary: 'access token refreshed' },
        ]),
        exchangeId: 'x1',
      }),
    })
    const store = createAppStore(api)
    const f = flow('f1', 'ais', [step('discovery', 'done', { output: sandboxDiscovery }), exchange])
    renderWithStore(store, el(TokenGrants, { flow: f, step: exchange }))
    fireEvent.click(screen.getByRole('button', { name: 'Refresh the access token (refresh_token grant)' }))
    await waitFor(() => expect(store.getState().flows.f1?.steps[1]?.summary).toBe('access token refreshed'))
    expect(api.callsOf('flows.refreshToken')).toEqual([{ flowId: 'f1' }])
    cleanup()

    const noGrant = flow('f2', 'ais', [
      step('discovery', 'done', { output: { grant_types_supported: ['authorization_code', 'client_credentials'] } }),
      exchange,
    ])
    renderWithStore(store, el(TokenGrants, { flow: noGrant, step: exchange }))
    expect(
      (screen.getByRole('button', { name: 'Refresh the access token (refresh_token grant)' }) as HTMLButtonElement)
        .disabled,
    ).toBe(true)
    expect(screen.getByRole('group', { name: 'Token grants' }).textContent).toContain(
      'Not available: the bank does not advertise the refresh_token grant.',
    )
  })
})
