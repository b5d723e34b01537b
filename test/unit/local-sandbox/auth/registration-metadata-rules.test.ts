import { describe, expect, it } from 'vitest'
import {
  checkApplicationType,
  checkGrantTypes,
  checkRedirectUris,
  checkResponseTypes,
  checkScope,
  checkSubjectType,
} from '../../../../src-main/local-sandbox/auth/registration/registration-metadata-rules.ts'
import { refusal, ssa, validClaims as valid } from './support/registration-claims.ts'

describe('the rules of what the client asks for', () => {
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

  it('response_types code and code id_token (the order of the words does not matter)', () => {
    expect(checkResponseTypes(valid({ response_types: ['id_token code'] }))).toEqual(['code id_token'])
    expect(refusal(() => checkResponseTypes(valid({ response_types: ['token'] }))).message).toMatch(/"token"/)
  })
})
