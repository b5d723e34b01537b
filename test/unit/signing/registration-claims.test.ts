import { describe, expect, it } from 'vitest'
import {
  buildRegistrationClaims,
  scopeForRoles,
  ssaFacts,
  type RegistrationContext,
} from '../../../src-main/signing/registration-claims.ts'
import { ssa } from './keys-fixture.ts'

const ctx: RegistrationContext = {
  authUrl: 'https://127.0.0.1:8444',
  environmentKind: 'local-sandbox',
  now: 1767225600,
}

describe('registration claims (bank spec table 2.1)', () => {
  it('fills the defaults from the SSA and the spec', () => {
    const claims = buildRegistrationClaims({ softwareStatement: ssa() }, ctx)
    expect(claims).toMatchObject({
      iss: 'SoftwareId123',
      aud: 'https://127.0.0.1:8444',
      iat: 1767225600,
      exp: 1767229200,
      token_endpoint_auth_signing_alg: 'PS256',
      grant_types: ['authorization_code', 'client_credentials'],
      subject_type: 'public',
      application_type: 'web',
      redirect_uris: ['https://tpp.example/callback', 'https://tpp.example/other'],
      token_endpoint_auth_method: 'private_key_jwt',
      scope: 'openid accounts payments',
      request_object_signing_alg: 'none',
      response_types: ['code', 'code id_token'],
      id_token_signed_response_alg: 'PS256',
    })
    expect(claims.jti).toMatch(/^[0-9a-f-]{36}$/)
    expect(scopeForRoles(['AISP'])).toBe('openid accounts')
    expect(scopeForRoles(['PISP'])).toBe('openid payments')
  })

  it("reads the SSA's software id, roles and redirect URIs, and says why an SSA cannot be read", () => {
    expect(ssaFacts(ssa())).toEqual({
      softwareId: 'SoftwareId123',
      roles: ['AISP', 'PISP'],
      redirectUris: ['https://tpp.example/callback', 'https://tpp.example/other'],
    })
    expect(ssaFacts(ssa({ software_id: 7, software_roles: ['AISP', 3] }))).toEqual({
      roles: ['AISP'],
      redirectUris: ['https://tpp.example/callback', 'https://tpp.example/other'],
    })
    const unreadable = ssaFacts('not a jwt')
    expect(unreadable).toMatchObject({ roles: [], redirectUris: [] })
    expect(unreadable.error).toBeTruthy()
  })
})
