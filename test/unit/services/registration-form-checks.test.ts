import { describe, expect, it } from 'vitest'
import type { EnvironmentDto } from '../../../src-main/contract/environments.ts'
import { checkRegistrationForm, registrationDefaults } from '../../../src-main/services/registration-form-checks.ts'
import { SOFTWARE_ID, ssaClaims, unsignedJwt } from '../certificates/pki-fixture.ts'

const bank: EnvironmentDto = {
  id: 'bank',
  name: 'Bank sandbox',
  kind: 'bank-sandbox',
  baseUrl: 'https://rs.bank.example',
  authUrl: 'https://auth.bank.example',
  apiPaths: { registration: '/register', ais: '/a', pis: '/p' },
  appScheme: 'bankapp',
  tlsVerification: 'off',
  allowedAuthMethods: ['private_key_jwt'],
  builtIn: false,
}
const ssa = unsignedJwt(ssaClaims())
const now = Math.floor(Date.now() / 1000)

describe('the registration form', () => {
  it("starts with the bank's defaults for the software statement and the environment", () => {
    const form = registrationDefaults(bank, ssa, now)
    expect(form).toMatchObject({
      iss: SOFTWARE_ID,
      aud: bank.authUrl,
      tokenEndpointAuthMethod: 'private_key_jwt',
      redirectUris: ['https://tpp.example/callback'],
    })
    expect(form.expiresInSeconds).toBeGreaterThan(0)
    expect(registrationDefaults({ ...bank, kind: 'production' }, ssa, now).requestObjectSigningAlg).toBe('PS256')
    expect(checkRegistrationForm(bank, ssa, form, now)).toMatchObject({ valid: true })
  })

  it('fails an iss or aud that differs from the derived one, naming what it must be', () => {
    const form = { ...registrationDefaults(bank, ssa, now), iss: 'someone-else', aud: `${bank.authUrl}/token` }
    const { checks, valid } = checkRegistrationForm(bank, ssa, form, now)
    expect(valid).toBe(false)
    expect(checks.filter((c) => c.name === 'iss')).toEqual([
      expect.objectContaining({ pass: false, expected: SOFTWARE_ID, actual: 'someone-else' }),
    ])
    expect(checks.filter((c) => c.name === 'aud')).toEqual([
      expect.objectContaining({
        pass: false,
        expected: bank.authUrl,
        hint: `aud is the authorisation server address (${bank.authUrl}), with no trailing path.`,
      }),
    ])
  })

  it('fails an auth method the environment does not allow, naming the environment', () => {
    const form = { ...registrationDefaults(bank, ssa, now), tokenEndpointAuthMethod: 'client_secret_basic' }
    const { checks, valid } = checkRegistrationForm(bank, ssa, form, now)
    expect(valid).toBe(false)
    expect(checks.find((c) => c.name === 'token_endpoint_auth_method (environment)')).toMatchObject({
      pass: false,
      expected: 'private_key_jwt',
      actual: 'client_secret_basic',
      hint: 'The environment "Bank sandbox" allows private_key_jwt.',
    })
    const allowed = { ...bank, allowedAuthMethods: ['private_key_jwt' as const, 'client_secret_basic' as const] }
    expect(checkRegistrationForm(allowed, ssa, form, now).checks.map((c) => c.name)).not.toContain(
      'token_endpoint_auth_method (environment)',
    )
  })
})
