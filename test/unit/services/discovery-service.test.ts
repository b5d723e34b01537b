import { describe, expect, it } from 'vitest'
import type { EnvironmentDto } from '../../../src-main/contract/environments.ts'
import { capabilityChecks } from '../../../src-main/services/discovery-service.ts'

const env: EnvironmentDto = {
  id: 'e',
  name: 'Bank',
  kind: 'bank-sandbox',
  baseUrl: 'https://rs.bank.example',
  authUrl: 'https://auth.bank.example',
  apiPaths: { registration: '/r', ais: '/a', pis: '/p' },
  appScheme: 'bankapp',
  tlsVerification: 'off',
  allowedAuthMethods: ['private_key_jwt', 'client_secret_basic'],
  builtIn: false,
}

const doc = {
  issuer: 'https://auth.bank.example',
  authorization_endpoint: 'https://auth.bank.example/auth',
  token_endpoint: 'https://auth.bank.example/token',
  jwks_uri: 'https://auth.bank.example/jwks',
  token_endpoint_auth_methods_supported: ['private_key_jwt', 'tls_client_auth'],
  response_types_supported: ['code id_token'],
  id_token_signing_alg_values_supported: ['PS256'],
  request_object_signing_alg_values_supported: ['PS256'],
  grant_types_supported: ['authorization_code', 'client_credentials'],
  scopes_supported: ['openid', 'accounts'],
}

const failing = (checks: ReturnType<typeof capabilityChecks>) => checks.filter((c) => !c.pass).map((c) => c.name)

describe('capabilityChecks', () => {
  it('names every mismatch between the environment, the registration and what discovery advertises', () => {
    const registration = {
      token_endpoint_auth_method: 'client_secret_basic',
      request_object_signing_alg: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code id_token'],
      scope: 'openid accounts payments',
    }
    expect(failing(capabilityChecks(doc, env, registration))).toEqual([
      'environment auth method client_secret_basic',
      'registered token_endpoint_auth_method',
      'registered request_object_signing_alg',
      'registered grant type refresh_token',
      'registered scope payments',
    ])
  })

  it('passes a registration within what is advertised, and says what it could not check instead of failing it', () => {
    const { scopes_supported: _s, ...withoutScopes } = doc
    const checks = capabilityChecks(
      { ...withoutScopes, issuer: 'https://auth.bank.example' },
      { ...env, allowedAuthMethods: ['private_key_jwt'] },
      { token_endpoint_auth_method: 'private_key_jwt', scope: 'openid accounts' },
    )
    expect(failing(checks)).toEqual([])
    expect(checks.find((c) => c.name === 'registered scope accounts')?.actual).toContain('not advertised')
  })

  it("fails an issuer that is not the environment's auth URL", () => {
    expect(failing(capabilityChecks({ ...doc, issuer: 'https://other.example' }, env))).toContain(
      "issuer is the environment's auth URL",
    )
  })
})
