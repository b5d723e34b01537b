import { describe, expect, it } from 'vitest'
import type { SoftwareStatementClaims } from '../../../../src-main/local-sandbox/directory/types.ts'
import { RegistrationError } from '../../../../src-main/local-sandbox/auth/registration/registration-error.ts'
import {
  checkApplicationType,
  checkAudience,
  checkGrantTypes,
  checkIdTokenSignedResponseAlg,
  checkIssuer,
  checkJti,
  checkRedirectUris,
  checkRequestObjectSigningAlg,
  checkResponseTypes,
  checkScope,
  checkSoftwareStatementPresent,
  checkSubjectType,
  checkTimes,
  checkTokenEndpointAuthMethod,
  checkTokenEndpointAuthSigningAlg,
  checkTransportOrganisation,
  resolveProfile,
  validateRegistrationClaims,
} from '../../../../src-main/local-sandbox/auth/registration/registration-rules.ts'

const AUTH_URL = 'https://127.0.0.1:4001'
const NOW = 1_800_000_000
const ssa = {
  software_id: 'Soft1234567890123456AB',
  org_id: '0015800001ABCDEFGH',
  software_roles: ['AISP', 'PISP'],
  software_redirect_uris: ['https://tpp.example/cb', 'https://tpp.example/cb2'],
} as unknown as SoftwareStatementClaims

function valid(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const claims: Record<string, unknown> = {
    iss: ssa.software_id,
    aud: AUTH_URL,
    iat: NOW,
    exp: NOW + 3600,
    jti: 'a4f7c0de-0000-4000-8000-000000000001',
    token_endpoint_auth_signing_alg: 'PS256',
    grant_types: ['authorization_code', 'client_credentials'],
    subject_type: 'public',
    application_type: 'web',
    redirect_uris: ['https://tpp.example/cb'],
    token_endpoint_auth_method: 'private_key_jwt',
    scope: 'openid accounts payments',
    request_object_signing_alg: 'none',
    response_types: ['code', 'code id_token'],
    id_token_signed_response_alg: 'PS256',
    software_statement: 'h.p.s',
  }
  for (const [k, v] of Object.entries(overrides)) {
    if (v === undefined) delete claims[k]
    else claims[k] = v
  }
  return claims
}

function refusal(fn: () => unknown): RegistrationError {
  try {
    fn()
  } catch (err) {
    if (err instanceof RegistrationError) return err
    throw err
  }
  throw new Error('expected a RegistrationError')
}

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
})

describe('each claim rule', () => {
  it('iss must be the software id, and software_id (when sent) too', () => {
    expect(refusal(() => checkIssuer(valid({ iss: 'x' }), ssa)).message).toMatch(
      /iss is "x"; expected the software statement's software_id "Soft1234567890123456AB"/,
    )
    expect(refusal(() => checkIssuer(valid({ iss: undefined }), ssa)).message).toMatch(/no iss claim/)
    expect(refusal(() => checkIssuer(valid({ software_id: 'other' }), ssa)).message).toMatch(/software_id is "other"/)
    expect(() => checkIssuer(valid({ software_id: ssa.software_id }), ssa)).not.toThrow()
  })

  it('aud must be exactly {auth_url}; the OB org-id reading is named in the error', () => {
    expect(() => checkAudience(valid(), AUTH_URL)).not.toThrow()
    for (const aud of [`${AUTH_URL}/`, `${AUTH_URL}/token`, ssa.org_id, [AUTH_URL]]) {
      const e = refusal(() => checkAudience(valid({ aud }), AUTH_URL))
      expect(e.error).toBe('invalid_client_metadata')
      expect(e.message).toContain('organisation id')
    }
  })

  it('iat not in the future (60 s skew), exp not passed, at most an hour and the skew between them', () => {
    expect(checkTimes(valid({ iat: NOW + 60, exp: NOW + 3600 }), NOW)).toEqual({ iat: NOW + 60, exp: NOW + 3600 })
    expect(refusal(() => checkTimes(valid({ iat: NOW + 61, exp: NOW + 3600 }), NOW)).message).toMatch(
      /61 s in the future/,
    )
    expect(refusal(() => checkTimes(valid({ exp: NOW }), NOW)).message).toMatch(/expired 0 s ago/)
    expect(refusal(() => checkTimes(valid({ iat: NOW, exp: NOW + 3661 }), NOW)).message).toMatch(/exp - iat is 3661 s/)
    expect(refusal(() => checkTimes(valid({ iat: NOW + 50, exp: NOW + 40 }), NOW)).message).toMatch(/not after iat/)
    expect(refusal(() => checkTimes(valid({ iat: 1.5 }), NOW)).message).toMatch(/iat is 1.5/)
    expect(refusal(() => checkTimes(valid({ exp: undefined }), NOW)).message).toMatch(/no exp claim/)
  })

  it('jti present and a UUID (spec table 2.1)', () => {
    expect(checkJti(valid())).toBe('a4f7c0de-0000-4000-8000-000000000001')
    expect(refusal(() => checkJti(valid({ jti: undefined }))).message).toMatch(/no jti/)
    expect(refusal(() => checkJti(valid({ jti: 42 }))).message).toMatch(/jti is 42/)
    expect(refusal(() => checkJti(valid({ jti: 'x'.repeat(129) }))).message).toMatch(/expected a UUID/)
    expect(refusal(() => checkJti(valid({ jti: 'registration-1' }))).message).toMatch(
      /"registration-1"; expected a UUID/,
    )
    expect(refusal(() => checkJti(valid({ jti: 'a4f7c0de-0000-4000-8000-00000000000' }))).message).toMatch(
      /expected a UUID/,
    )
    expect(checkJti(valid({ jti: 'A4F7C0DE-0000-4000-8000-000000000001' }))).toBe(
      'A4F7C0DE-0000-4000-8000-000000000001',
    )
  })

  it('PS256 for the token endpoint assertion and the ID token', () => {
    expect(checkTokenEndpointAuthSigningAlg(valid())).toBe('PS256')
    expect(
      refusal(() => checkTokenEndpointAuthSigningAlg(valid({ token_endpoint_auth_signing_alg: 'ES256' }))).message,
    ).toMatch(/"ES256"; expected "PS256"/)
    expect(
      refusal(() => checkIdTokenSignedResponseAlg(valid({ id_token_signed_response_alg: 'none' }))).message,
    ).toMatch(/id_token_signed_response_alg is "none"/)
  })

  it('grant_types within the three, with authorization_code and client_credentials', () => {
    expect(
      checkGrantTypes(
        valid({ grant_types: ['client_credentials', 'authorization_code', 'refresh_token', 'refresh_token'] }),
      ),
    ).toEqual(['client_credentials', 'authorization_code', 'refresh_token'])
    expect(refusal(() => checkGrantTypes(valid({ grant_types: ['authorization_code'] }))).message).toMatch(
      /lacks client_credentials/,
    )
    expect(
      refusal(() => checkGrantTypes(valid({ grant_types: ['authorization_code', 'client_credentials', 'password'] })))
        .message,
    ).toMatch(/"password"/)
    expect(refusal(() => checkGrantTypes(valid({ grant_types: 'authorization_code' }))).message).toMatch(/JSON array/)
  })

  it('subject_type public; application_type web or mobile', () => {
    expect(checkSubjectType(valid())).toBe('public')
    expect(refusal(() => checkSubjectType(valid({ subject_type: 'pairwise' }))).message).toMatch(/pairwise/)
    expect(checkApplicationType(valid({ application_type: 'mobile' }))).toBe('mobile')
    expect(refusal(() => checkApplicationType(valid({ application_type: 'native' }))).message).toMatch(/native/)
  })

  it("redirect URIs within the software statement's, else invalid_redirect_uri", () => {
    expect(
      checkRedirectUris(
        valid({ redirect_uris: ['https://tpp.example/cb2', 'https://tpp.example/cb'] }),
        ssa.software_redirect_uris,
      ),
    ).toHaveLength(2)
    const e = refusal(() =>
      checkRedirectUris(valid({ redirect_uris: ['https://tpp.example/other'] }), ssa.software_redirect_uris),
    )
    expect(e.error).toBe('invalid_redirect_uri')
    expect(e.message).toContain('"https://tpp.example/other"')
    expect(refusal(() => checkRedirectUris(valid({ redirect_uris: [] }), ssa.software_redirect_uris)).error).toBe(
      'invalid_redirect_uri',
    )
    expect(
      refusal(() => checkRedirectUris(valid({ redirect_uris: undefined }), ssa.software_redirect_uris)).error,
    ).toBe('invalid_redirect_uri')
  })

  it('token_endpoint_auth_method private_key_jwt or client_secret_basic', () => {
    expect(checkTokenEndpointAuthMethod(valid({ token_endpoint_auth_method: 'client_secret_basic' }))).toBe(
      'client_secret_basic',
    )
    for (const m of ['client_secret_post', 'tls_client_auth', 'none'])
      expect(refusal(() => checkTokenEndpointAuthMethod(valid({ token_endpoint_auth_method: m }))).message).toContain(m)
  })

  it('scope from openid accounts payments, within the software roles', () => {
    expect(checkScope(valid({ scope: 'openid  accounts' }), ['AISP'])).toEqual(['openid', 'accounts'])
    expect(refusal(() => checkScope(valid({ scope: 'openid payments' }), ['AISP'])).message).toMatch(
      /payments needs the PISP role/,
    )
    expect(refusal(() => checkScope(valid({ scope: 'openid accounts' }), ['PISP'])).message).toMatch(
      /accounts needs the AISP role/,
    )
    expect(refusal(() => checkScope(valid({ scope: 'openid' }), ['AISP'])).message).toMatch(/accounts and\/or payments/)
    expect(refusal(() => checkScope(valid({ scope: 'accounts' }), ['AISP'])).message).toMatch(/without openid/)
    expect(refusal(() => checkScope(valid({ scope: 'openid accounts offline_access' }), ['AISP'])).message).toMatch(
      /offline_access/,
    )
  })

  it('request_object_signing_alg none or PS256; response_types code and code id_token', () => {
    expect(checkRequestObjectSigningAlg(valid({ request_object_signing_alg: 'PS256' }))).toBe('PS256')
    expect(refusal(() => checkRequestObjectSigningAlg(valid({ request_object_signing_alg: 'HS256' }))).message).toMatch(
      /HS256/,
    )
    expect(checkResponseTypes(valid({ response_types: ['id_token code'] }))).toEqual(['code id_token'])
    expect(refusal(() => checkResponseTypes(valid({ response_types: ['token'] }))).message).toMatch(/"token"/)
  })

  it('software_statement present and a JWT, else invalid_software_statement', () => {
    expect(checkSoftwareStatementPresent(valid())).toBe('h.p.s')
    expect(refusal(() => checkSoftwareStatementPresent(valid({ software_statement: undefined }))).error).toBe(
      'invalid_software_statement',
    )
    expect(refusal(() => checkSoftwareStatementPresent(valid({ software_statement: 'not-a-jwt' }))).error).toBe(
      'invalid_software_statement',
    )
  })

  it("the transport certificate's organisation must be the software statement's org_id", () => {
    expect(() => checkTransportOrganisation(ssa.org_id, ssa)).not.toThrow()
    const e = refusal(() => checkTransportOrganisation('0015800001OTHER0000', ssa))
    expect(e.error).toBe('unapproved_software_statement')
    expect(e.message).toContain('"0015800001OTHER0000"')
    expect(e.message).toContain(`"${ssa.org_id}"`)
    expect(refusal(() => checkTransportOrganisation(undefined, ssa)).message).toContain('absent')
  })

  it('profiles: default by the choices, chosen by sandbox_profile, strict refuses permissive choices', () => {
    expect(resolveProfile(valid(), 'private_key_jwt', 'PS256')).toEqual({ security: 'strict', headless: false })
    expect(resolveProfile(valid(), 'client_secret_basic', 'PS256')).toEqual({ security: 'permissive', headless: false })
    expect(resolveProfile(valid(), 'private_key_jwt', 'none')).toEqual({ security: 'permissive', headless: false })
    expect(resolveProfile(valid({ sandbox_profile: 'strict-headless' }), 'private_key_jwt', 'PS256')).toEqual({
      security: 'strict',
      headless: true,
    })
    expect(resolveProfile(valid({ sandbox_profile: 'permissive' }), 'private_key_jwt', 'PS256')).toEqual({
      security: 'permissive',
      headless: false,
    })
    expect(
      refusal(() => resolveProfile(valid({ sandbox_profile: 'strict' }), 'client_secret_basic', 'PS256')).message,
    ).toMatch(/private_key_jwt only/)
    expect(
      refusal(() => resolveProfile(valid({ sandbox_profile: 'strict' }), 'private_key_jwt', 'none')).message,
    ).toMatch(/PS256/)
    // application_type: a strict client registers web only; mobile without a profile is permissive.
    expect(
      refusal(() => resolveProfile(valid({ sandbox_profile: 'strict' }), 'private_key_jwt', 'PS256', 'mobile')).message,
    ).toMatch(/application_type is "mobile"/)
    expect(resolveProfile(valid(), 'private_key_jwt', 'PS256', 'mobile')).toEqual({
      security: 'permissive',
      headless: false,
    })
    expect(
      resolveProfile(valid({ sandbox_profile: 'permissive-headless' }), 'private_key_jwt', 'PS256', 'mobile'),
    ).toEqual({ security: 'permissive', headless: true })
    expect(
      refusal(() => resolveProfile(valid({ sandbox_profile: 'headless' }), 'private_key_jwt', 'PS256')).message,
    ).toMatch(/"strict", "strict-headless"/)
  })
})
