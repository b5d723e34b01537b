import { decodeProtectedHeader, jwtVerify } from 'jose'
import { describe, expect, it } from 'vitest'
import { isAppError } from '../../../src-main/core/app-error.ts'
import {
  signRegistrationJwt,
  validateRegistration,
  type RegistrationContext,
} from '../../../src-main/signing/registration-jwt.ts'
import { jwksOf, rsaSigner, ssa } from './keys-fixture.ts'
import { createLocalJWKSet } from 'jose'

const ctx: RegistrationContext = {
  authUrl: 'https://127.0.0.1:8444',
  environmentKind: 'local-sandbox',
  now: 1767225600,
}
const failing = (checks: Array<{ name: string; pass: boolean }>) => checks.filter((c) => !c.pass).map((c) => c.name)

describe('registration JWT (bank spec table 2.1)', () => {
  it('passes every claim check for a well-formed form, one check per claim', () => {
    const { checks, valid } = validateRegistration({ softwareStatement: ssa() }, ctx)
    expect(valid).toBe(true)
    expect(checks.map((c) => c.name)).toEqual([
      'software_statement',
      'iss',
      'aud',
      'iat',
      'exp',
      'jti',
      'token_endpoint_auth_signing_alg',
      'grant_types',
      'subject_type',
      'application_type',
      'redirect_uris',
      'token_endpoint_auth_method',
      'scope',
      'request_object_signing_alg',
      'response_types',
      'id_token_signed_response_alg',
    ])
  })

  it('fails each bad claim separately, saying what is expected', () => {
    const { checks } = validateRegistration(
      {
        softwareStatement: ssa({ software_roles: ['AISP'] }),
        redirectUris: ['https://evil.example/cb'],
        scope: 'openid accounts payments',
        grantTypes: ['client_credentials', 'implicit'],
        responseTypes: ['token'],
        lifetimeSeconds: 7200,
        jti: 'not-a-uuid',
        applicationType: 'native',
      },
      { ...ctx, authUrl: 'https://auth.example/oauth2/' },
    )
    expect(failing(checks)).toEqual([
      'aud',
      'exp',
      'jti',
      'grant_types',
      'application_type',
      'redirect_uris',
      'scope',
      'response_types',
    ])
    const scope = checks.find((c) => c.name === 'scope')!
    expect(scope.hint).toMatch(/payments needs the PISP role/)
    const uris = checks.find((c) => c.name === 'redirect_uris')!
    expect(uris.hint).toMatch(/not in the software statement/)
  })

  it('allows client_secret_basic in sandboxes only', () => {
    expect(
      validateRegistration({ softwareStatement: ssa(), tokenEndpointAuthMethod: 'client_secret_basic' }, ctx).valid,
    ).toBe(true)
    expect(
      validateRegistration(
        { softwareStatement: ssa(), tokenEndpointAuthMethod: 'client_secret_basic' },
        { ...ctx, environmentKind: 'bank-sandbox' },
      ).valid,
    ).toBe(true)
    const prod = validateRegistration(
      { softwareStatement: ssa(), tokenEndpointAuthMethod: 'client_secret_basic' },
      { ...ctx, environmentKind: 'production' },
    )
    expect(failing(prod.checks)).toEqual(['token_endpoint_auth_method'])
    expect(prod.checks.find((c) => c.name === 'token_endpoint_auth_method')!.hint).toMatch(
      /production requires private_key_jwt/,
    )
  })

  it('refuses http and localhost redirect URIs in production', () => {
    const form = { softwareStatement: ssa({ software_redirect_uris: ['http://localhost:3000/cb'] }) }
    expect(validateRegistration(form, ctx).valid).toBe(true)
    expect(failing(validateRegistration(form, { ...ctx, environmentKind: 'production' }).checks)).toEqual([
      'redirect_uris',
    ])
  })

  it('reports an unreadable software statement on software_statement, iss and the claims derived from it', () => {
    const { checks } = validateRegistration({ softwareStatement: 'garbage' }, ctx)
    expect(failing(checks)).toEqual(['software_statement', 'iss', 'redirect_uris', 'scope'])
  })

  it('signs PS256 with kid and typ JWT, verifiable with the public key', async () => {
    const signer = rsaSigner('reg-kid')
    const { jwt, claims } = await signRegistrationJwt(
      { softwareStatement: ssa(), extraClaims: { sandbox_profile: 'strict-headless' } },
      ctx,
      signer,
    )
    expect(decodeProtectedHeader(jwt)).toEqual({ alg: 'PS256', kid: 'reg-kid', typ: 'JWT' })
    const { payload } = await jwtVerify(jwt, createLocalJWKSet(jwksOf(signer)), {
      algorithms: ['PS256'],
      currentDate: new Date(ctx.now * 1000),
    })
    expect(payload).toEqual(claims)
    expect(payload.sandbox_profile).toBe('strict-headless')
  })

  it('refuses to sign invalid claims, listing each problem', async () => {
    try {
      await signRegistrationJwt({ softwareStatement: ssa(), scope: 'accounts', jti: 'x' }, ctx, rsaSigner())
      expect.unreachable()
    } catch (err) {
      expect(isAppError(err) && err.code).toBe('CLAIMS_INVALID')
      expect(isAppError(err) && err.problems?.map((p) => p.code)).toEqual(['jti', 'scope'])
    }
  })
})
