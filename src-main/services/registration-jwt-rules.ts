import type { JwtVerifyInput } from '../contract/api.ts'
import type { CheckResult } from '../contract/checks.ts'
import type { DecodedJwtDto } from '../contract/jwt.ts'
import { check } from '../signing/check.ts'
import { validateRegistration, type RegistrationForm } from '../signing/registration-jwt.ts'

/** The registration form a registration JWT's claims amount to (each claim of table 2.1 it carries, typed). */
export function registrationFormOf(c: Record<string, unknown>): RegistrationForm {
  return {
    softwareStatement: String(c.software_statement ?? ''),
    ...(Array.isArray(c.redirect_uris) ? { redirectUris: c.redirect_uris as string[] } : {}),
    ...(typeof c.token_endpoint_auth_method === 'string'
      ? { tokenEndpointAuthMethod: c.token_endpoint_auth_method }
      : {}),
    ...(typeof c.scope === 'string' ? { scope: c.scope } : {}),
    ...(Array.isArray(c.grant_types) ? { grantTypes: c.grant_types as string[] } : {}),
    ...(Array.isArray(c.response_types) ? { responseTypes: c.response_types as string[] } : {}),
    ...(typeof c.request_object_signing_alg === 'string'
      ? { requestObjectSigningAlg: c.request_object_signing_alg }
      : {}),
    ...(typeof c.application_type === 'string' ? { applicationType: c.application_type } : {}),
    ...(typeof c.subject_type === 'string' ? { subjectType: c.subject_type } : {}),
    ...(typeof c.token_endpoint_auth_signing_alg === 'string'
      ? { tokenEndpointAuthSigningAlg: c.token_endpoint_auth_signing_alg }
      : {}),
    ...(typeof c.id_token_signed_response_alg === 'string'
      ? { idTokenSignedResponseAlg: c.id_token_signed_response_alg }
      : {}),
    ...(typeof c.exp === 'number' && typeof c.iat === 'number' ? { lifetimeSeconds: c.exp - c.iat } : {}),
    ...(typeof c.jti === 'string' ? { jti: c.jti } : {}),
  }
}

/**
 * A registration JWT as the bank checks it (bank spec table 2.1): each claim, iss as sent, the header, and whether
 * it has expired by now (`now`: the exchange's time in the inspector).
 */
export function registrationJwtChecks(
  decoded: DecodedJwtDto,
  expected: NonNullable<JwtVerifyInput['expected']>,
  now: number,
): CheckResult[] {
  const alg = String(decoded.header.alg ?? '')
  const checks: CheckResult[] = []
  const c = decoded.claims ?? {}
  const { checks: reg } = validateRegistration(registrationFormOf(c), {
    authUrl: expected.authUrl ?? String(c.aud ?? ''),
    environmentKind: (expected.environmentKind as 'production' | undefined) ?? 'bank-sandbox',
    now: typeof c.iat === 'number' ? c.iat : now,
  })
  checks.push(
    ...reg.filter((r) => r.name !== 'iat'),
    check(
      'iss (as sent)',
      c.iss === reg.find((r) => r.name === 'iss')?.expected,
      reg.find((r) => r.name === 'iss')?.expected,
      c.iss,
      'iss must equal the SSA software_id',
    ),
  )
  checks.push(
    check('header typ', decoded.header.typ === 'JWT', 'JWT', decoded.header.typ),
    check('header alg', alg === 'PS256', 'PS256', alg),
    check('header kid', typeof decoded.header.kid === 'string', 'the signing key id', decoded.header.kid),
  )
  checks.push(
    check(
      'exp (now)',
      typeof c.exp === 'number' && c.exp > now,
      `after now (${now})`,
      c.exp,
      'the registration JWT has expired',
    ),
  )
  return checks
}
