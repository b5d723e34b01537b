import type { RegistrationForm } from '../contract/api.ts'
import type { CheckResult } from '../contract/checks.ts'
import type { EnvironmentDto } from '../contract/environments.ts'
import {
  validateRegistration,
  type RegistrationClaims,
  type RegistrationForm as SigningForm,
} from '../signing/registration-jwt.ts'

/** The form's claims as the signing layer builds them: the form with the identity's software statement. */
function toSigningForm(form: RegistrationForm, ssa: string): SigningForm {
  return {
    softwareStatement: ssa,
    ...(form.redirectUris ? { redirectUris: form.redirectUris } : {}),
    ...(form.tokenEndpointAuthMethod ? { tokenEndpointAuthMethod: form.tokenEndpointAuthMethod } : {}),
    ...(form.scope !== undefined ? { scope: form.scope } : {}),
    ...(form.grantTypes ? { grantTypes: form.grantTypes } : {}),
    ...(form.responseTypes ? { responseTypes: form.responseTypes } : {}),
    ...(form.requestObjectSigningAlg ? { requestObjectSigningAlg: form.requestObjectSigningAlg } : {}),
    ...(form.applicationType ? { applicationType: form.applicationType } : {}),
    ...(form.subjectType ? { subjectType: form.subjectType } : {}),
    ...(form.tokenEndpointAuthSigningAlg ? { tokenEndpointAuthSigningAlg: form.tokenEndpointAuthSigningAlg } : {}),
    ...(form.idTokenSignedResponseAlg ? { idTokenSignedResponseAlg: form.idTokenSignedResponseAlg } : {}),
    ...(form.expiresInSeconds !== undefined ? { lifetimeSeconds: form.expiresInSeconds } : {}),
    ...(form.jti ? { jti: form.jti } : {}),
    ...(form.extraClaims ? { extraClaims: form.extraClaims } : {}),
  }
}

/** What the registration form starts with: the bank's defaults for this software statement and environment. */
export function registrationDefaults(env: EnvironmentDto, ssa: string, nowSeconds: number): RegistrationForm {
  const { claims } = validateRegistration(
    { softwareStatement: ssa },
    { authUrl: env.authUrl, environmentKind: env.kind, now: nowSeconds },
  )
  return {
    iss: claims.iss,
    aud: claims.aud,
    expiresInSeconds: claims.exp - claims.iat,
    tokenEndpointAuthMethod: 'private_key_jwt',
    tokenEndpointAuthSigningAlg: claims.token_endpoint_auth_signing_alg,
    grantTypes: claims.grant_types,
    subjectType: claims.subject_type,
    applicationType: claims.application_type,
    redirectUris: claims.redirect_uris,
    scope: claims.scope,
    requestObjectSigningAlg: env.kind === 'production' ? 'PS256' : claims.request_object_signing_alg,
    responseTypes: claims.response_types,
    idTokenSignedResponseAlg: claims.id_token_signed_response_alg,
  }
}

/** The claims a registration form makes, every check on them, and whether all pass. */
export interface CheckedRegistration {
  claims: RegistrationClaims
  checks: CheckResult[]
  valid: boolean
}

/**
 * The form's claims checked against the bank's rules (`signing/registration-jwt.ts`), then against what the
 * form overrides (iss and aud are derived: a different value fails) and the auth methods the environment allows.
 */
export function checkRegistrationForm(
  env: EnvironmentDto,
  ssa: string,
  form: RegistrationForm,
  nowSeconds: number,
): CheckedRegistration {
  const result = validateRegistration(toSigningForm(form, ssa), {
    authUrl: env.authUrl,
    environmentKind: env.kind,
    now: nowSeconds,
  })
  const overrides: CheckResult[] = []
  if (form.iss !== undefined && form.iss !== result.claims.iss)
    overrides.push({
      name: 'iss',
      pass: false,
      expected: result.claims.iss,
      actual: form.iss,
      hint: 'iss is the software statement ID: it must equal software_id in the SSA.',
    })
  if (form.aud !== undefined && form.aud !== result.claims.aud)
    overrides.push({
      name: 'aud',
      pass: false,
      expected: result.claims.aud,
      actual: form.aud,
      hint: `aud is the authorisation server address (${env.authUrl}), with no trailing path.`,
    })
  if (!env.allowedAuthMethods.some((m) => m === result.claims.token_endpoint_auth_method)) {
    overrides.push({
      name: 'token_endpoint_auth_method (environment)',
      pass: false,
      expected: env.allowedAuthMethods.join(' or '),
      actual: result.claims.token_endpoint_auth_method,
      hint: `The environment "${env.name}" allows ${env.allowedAuthMethods.join(' or ')}.`,
    })
  }
  const names = new Set(overrides.map((o) => o.name))
  const checks = [...result.checks.filter((c) => !names.has(c.name)), ...overrides]
  return { ...result, checks, valid: checks.every((c) => c.pass) }
}
