import { describe, expect, it } from 'vitest'
import * as rules from '../../../../src-main/local-sandbox/auth/registration/registration-metadata-rules.ts'
import { refusal, ssa, validClaims as valid } from './support/registration-claims.ts'

describe('the rules of what the client asks for', () => {
  it('grant_types within the three, with authorization_code and client_credentials', () => {
    expect(
      rules.checkGrantTypes(
        valid({ grant_types: ['client_credentials', 'authorization_code', 'refresh_token', 'refresh_token'] }),
      ),
    ).toEqual(['client_credentials', 'authorization_code', 'refresh_token'])
    expect(refusal(() => rules.checkGrantTypes(valid({ grant_types: ['authorization_code'] }))).message).toMatch(
      /lacks client_credentials/,
    )
    expect(
      refusal(() =>
        rules.checkGrantTypes(valid({ grant_types: ['authorization_code', 'client_credentials', 'password'] })),
      ).message,
    ).toMatch(/"password"/)
    expect(refusal(() => rules.checkGrantTypes(valid({ grant_types: 'authorization_code' }))).message).toMatch(
      /JSON array/,
    )
  })

  it('subject_type public; application_type web or mobile', () => {
    expect(rules.checkSubjectType(valid())).toBe('public')
    expect(refusal(() => rules.checkSubjectType(valid({ subject_type: 'pairwise' }))).message).toMatch(/pairwise/)
    expect(rules.checkApplicationType(valid({ application_type: 'mobile' }))).toBe('mobile')
    expect(refusal(() => rules.checkApplicationType(valid({ application_type: 'native' }))).message).toMatch(/native/)
  })

  it("redirect URIs within the software statement's, else invalid_redirect_uri", () => {
    expect(
      rules.checkRedirectUris(
        valid({ redirect_uris: ['https://tpp.example/cb2', 'https://tpp.example/cb'] }),
        ssa.software_redirect_uris,
      ),
    ).toHaveLength(2)
    const e = refusal(() =>
      rules.checkRedirectUris(valid({ redirect_uris: ['https://tpp.example/other'] }), ssa.software_redirect_uris),
    )
    expect(e.error).toBe('invalid_redirect_uri')
    expect(e.message).toContain('"https://tpp.example/other"')
    expect(refusal(() => rules.checkRedirectUris(valid({ redirect_uris: [] }), ssa.software_redirect_uris)).error).toBe(
      'invalid_redirect_uri',
    )
    expect(
      refusal(() => rules.checkRedirectUris(valid({ redirect_uris: undefined }), ssa.software_redirect_uris)).error,
    ).toBe('invalid_redirect_uri')
  })

  it('scope from openid accounts payments, within the software roles', () => {
    expect(rules.checkScope(valid({ scope: 'openid  accounts' }), ['AISP'])).toEqual(['openid', 'accounts'])
    expect(refusal(() => rules.checkScope(valid({ scope: 'openid payments' }), ['AISP'])).message).toMatch(
      /payments needs the PISP role/,
    )
    expect(refusal(() => rules.checkScope(valid({ scope: 'openid accounts' }), ['PISP'])).message).toMatch(
      /accounts needs the AISP role/,
    )
    expect(refusal(() => rules.checkScope(valid({ scope: 'openid' }), ['AISP'])).message).toMatch(
      /accounts and\/or payments/,
    )
    expect(refusal(() => rules.checkScope(valid({ scope: 'accounts' }), ['AISP'])).message).toMatch(/without openid/)
    expect(
      refusal(() => rules.checkScope(valid({ scope: 'openid accounts offline_access' }), ['AISP'])).message,
    ).toMatch(/offline_access/)
  })

  it('response_types code and code id_token (the order of the words does not matter)', () => {
    expect(rules.checkResponseTypes(valid({ response_types: ['id_token code'] }))).toEqual(['code id_token'])
    expect(refusal(() => rules.checkResponseTypes(valid({ response_types: ['token'] }))).message).toMatch(/"token"/)
  })
})
