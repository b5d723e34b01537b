import { describe, expect, it } from 'vitest'
import * as rules from '../../../../src-main/local-sandbox/auth/registration/registration-auth-rules.ts'
import { refusal, validClaims as valid } from './support/registration-claims.ts'

describe('the rules of how the client authenticates and signs', () => {
  it('PS256 for the token endpoint assertion and the ID token', () => {
    expect(rules.checkTokenEndpointAuthSigningAlg(valid())).toBe('PS256')
    expect(
      refusal(() => rules.checkTokenEndpointAuthSigningAlg(valid({ token_endpoint_auth_signing_alg: 'ES256' })))
        .message,
    ).toMatch(/"ES256"; expected "PS256"/)
    expect(
      refusal(() => rules.checkIdTokenSignedResponseAlg(valid({ id_token_signed_response_alg: 'none' }))).message,
    ).toMatch(/id_token_signed_response_alg is "none"/)
  })

  it('token_endpoint_auth_method private_key_jwt or client_secret_basic', () => {
    expect(rules.checkTokenEndpointAuthMethod(valid({ token_endpoint_auth_method: 'client_secret_basic' }))).toBe(
      'client_secret_basic',
    )
    for (const m of ['client_secret_post', 'tls_client_auth', 'none'])
      expect(
        refusal(() => rules.checkTokenEndpointAuthMethod(valid({ token_endpoint_auth_method: m }))).message,
      ).toContain(m)
  })

  it('request_object_signing_alg none or PS256', () => {
    expect(rules.checkRequestObjectSigningAlg(valid({ request_object_signing_alg: 'PS256' }))).toBe('PS256')
    expect(
      refusal(() => rules.checkRequestObjectSigningAlg(valid({ request_object_signing_alg: 'HS256' }))).message,
    ).toMatch(/HS256/)
  })

  it('profiles: default by the choices, chosen by sandbox_profile, strict refuses permissive choices', () => {
    expect(rules.resolveProfile(valid(), 'private_key_jwt', 'PS256')).toEqual({ security: 'strict', headless: false })
    expect(rules.resolveProfile(valid(), 'client_secret_basic', 'PS256')).toEqual({
      security: 'permissive',
      headless: false,
    })
    expect(rules.resolveProfile(valid(), 'private_key_jwt', 'none')).toEqual({
      security: 'permissive',
      headless: false,
    })
    expect(rules.resolveProfile(valid({ sandbox_profile: 'strict-headless' }), 'private_key_jwt', 'PS256')).toEqual({
      security: 'strict',
      headless: true,
    })
    expect(rules.resolveProfile(valid({ sandbox_profile: 'permissive' }), 'private_key_jwt', 'PS256')).toEqual({
      security: 'permissive',
      headless: false,
    })
    expect(
      refusal(() => rules.resolveProfile(valid({ sandbox_profile: 'strict' }), 'client_secret_basic', 'PS256')).message,
    ).toMatch(/private_key_jwt only/)
    expect(
      refusal(() => rules.resolveProfile(valid({ sandbox_profile: 'strict' }), 'private_key_jwt', 'none')).message,
    ).toMatch(/PS256/)
    // application_type: a strict client registers web only; mobile without a profile is permissive.
    expect(
      refusal(() => rules.resolveProfile(valid({ sandbox_profile: 'strict' }), 'private_key_jwt', 'PS256', 'mobile'))
        .message,
    ).toMatch(/application_type is "mobile"/)
    expect(rules.resolveProfile(valid(), 'private_key_jwt', 'PS256', 'mobile')).toEqual({
      security: 'permissive',
      headless: false,
    })
    expect(
      rules.resolveProfile(valid({ sandbox_profile: 'permissive-headless' }), 'private_key_jwt', 'PS256', 'mobile'),
    ).toEqual({ security: 'permissive', headless: true })
    expect(
      refusal(() => rules.resolveProfile(valid({ sandbox_profile: 'headless' }), 'private_key_jwt', 'PS256')).message,
    ).toMatch(/"strict", "strict-headless"/)
  })
})
