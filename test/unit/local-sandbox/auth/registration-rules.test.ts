import { describe, expect, it } from 'vitest'
import { validateRegistrationClaims } from '../../../../src-main/local-sandbox/auth/registration/registration-rules.ts'
import { AUTH_URL, NOW, refusal, ssa, validClaims as valid } from './support/registration-claims.ts'

describe('validateRegistrationClaims', () => {
  it("accepts the spec table's values and normalises them", () => {
    const r = validateRegistrationClaims(valid(), { authUrl: AUTH_URL, nowSeconds: NOW + 5, ssa })
    expect(r).toMatchObject({
      jti: 'a4f7c0de-0000-4000-8000-000000000001',
      redirectUris: ['https://tpp.example/cb'],
      tokenEndpointAuthMethod: 'private_key_jwt',
      grantTypes: ['authorization_code', 'client_credentials'],
      scopes: ['openid', 'accounts', 'payments'],
      requestObjectSigningAlg: 'none',
      responseTypes: ['code', 'code id_token'],
      profile: { security: 'permissive', headless: false },
    })
  })

  it('refuses at the first failing rule, in the order of the spec table', () => {
    const e = refusal(() =>
      validateRegistrationClaims(valid({ iss: 'x', aud: 'y', scope: 'nope' }), {
        authUrl: AUTH_URL,
        nowSeconds: NOW,
        ssa,
      }),
    )
    expect(e.message).toMatch(/^iss is "x"/)
  })

  it('with the tls_client_auth extension, keeps the subject DN of the registering certificate', () => {
    const dn = 'CN=tpp,OU=0015800001ABCDEFGH,O=TPP,C=GB'
    const claims = valid({ token_endpoint_auth_method: 'tls_client_auth', tls_client_auth_subject_dn: dn })
    const ctx = { authUrl: AUTH_URL, nowSeconds: NOW, ssa, certificateSubjectDns: [dn] }
    expect(validateRegistrationClaims(claims, { ...ctx, tlsClientAuth: true }).tlsClientAuthSubjectDn).toBe(dn)
    expect(validateRegistrationClaims(valid(), { ...ctx, tlsClientAuth: true })).not.toHaveProperty(
      'tlsClientAuthSubjectDn',
    )
    expect(refusal(() => validateRegistrationClaims(claims, ctx)).message).toMatch(/--tls-client-auth/)
  })
})
