import { expect } from 'vitest'
import type { SoftwareStatementClaims } from '../../../../../src-main/local-sandbox/directory/types.ts'
import { RegistrationError } from '../../../../../src-main/local-sandbox/auth/registration/registration-error.ts'

/** What the tests of the sandbox's registration rules check against: its {auth_url}, its now, a software statement. */
export const AUTH_URL = 'https://127.0.0.1:4001'
export const NOW = 1_800_000_000
export const ssa = {
  software_id: 'Soft1234567890123456AB',
  org_id: '0015800001ABCDEFGH',
  software_roles: ['AISP', 'PISP'],
  software_redirect_uris: ['https://tpp.example/cb', 'https://tpp.example/cb2'],
} as unknown as SoftwareStatementClaims

/** The claims of a registration request every rule accepts; an override of `undefined` removes the claim. */
export function validClaims(overrides: Record<string, unknown> = {}): Record<string, unknown> {
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

/** The RegistrationError `fn` throws (any other outcome fails the test). */
export function refusal(fn: () => unknown): RegistrationError {
  let thrown: unknown
  try {
    fn()
  } catch (err) {
    thrown = err
  }
  expect(thrown, 'expected a RegistrationError').toBeInstanceOf(RegistrationError)
  return thrown as RegistrationError
}
