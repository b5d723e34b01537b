import type { SoftwareRole } from '../../directory/types.ts'
import { invalid, stringArrayClaim, stringClaim } from './registration-claim-values.ts'
import { RegistrationError, shown } from './registration-error.ts'

/**
 * The rules of the registration request on what the client asks for: grant and response types, subject
 * and application type, redirect URIs and scope, each within the spec's table and the software statement.
 */

export const ALLOWED_GRANT_TYPES = ['authorization_code', 'client_credentials', 'refresh_token'] as const
export const REQUIRED_GRANT_TYPES = ['authorization_code', 'client_credentials'] as const
export const ALLOWED_RESPONSE_TYPES = ['code', 'code id_token'] as const
export const ALLOWED_SCOPES = ['openid', 'accounts', 'payments'] as const

/** `grant_types` within authorization_code, client_credentials, refresh_token, with the first two. */
export function checkGrantTypes(claims: Record<string, unknown>): string[] {
  const grantTypes = stringArrayClaim(claims, 'grant_types')
  const unknown = grantTypes.filter((g) => !(ALLOWED_GRANT_TYPES as readonly string[]).includes(g))
  if (unknown.length)
    throw invalid(`grant_types contains ${shown(unknown)}; expected only ${ALLOWED_GRANT_TYPES.join(', ')}`)
  const missing = REQUIRED_GRANT_TYPES.filter((g) => !grantTypes.includes(g))
  if (missing.length)
    throw invalid(
      `grant_types is ${shown(grantTypes)} and lacks ${missing.join(' and ')}; expected ["authorization_code", "client_credentials"] (spec section 2.1)`,
    )
  return [...new Set(grantTypes)]
}

/** `subject_type` = public. */
export function checkSubjectType(claims: Record<string, unknown>): 'public' {
  const value = stringClaim(claims, 'subject_type')
  if (value !== 'public') throw invalid(`subject_type is ${shown(value)}; expected "public" (no pairwise identifiers)`)
  return 'public'
}

/** `application_type` = web, or mobile (which DCR 3.2 allows; a strict client may register web only, see resolveProfile). */
export function checkApplicationType(claims: Record<string, unknown>): 'web' | 'mobile' {
  const value = stringClaim(claims, 'application_type')
  if (value !== 'web' && value !== 'mobile')
    throw invalid(`application_type is ${shown(value)}; expected "web" (or "mobile", permissive profile)`)
  return value
}

/** `redirect_uris`: at least one, each one of the software statement's `software_redirect_uris`. */
export function checkRedirectUris(claims: Record<string, unknown>, ssaRedirectUris: string[]): string[] {
  const value = claims.redirect_uris
  if (value === undefined)
    throw new RegistrationError(
      'invalid_redirect_uri',
      "the registration JWT has no redirect_uris claim; expected a non-empty array of the software statement's software_redirect_uris",
    )
  if (!Array.isArray(value) || value.length === 0 || value.some((v) => typeof v !== 'string' || v === '')) {
    throw new RegistrationError(
      'invalid_redirect_uri',
      `redirect_uris is ${shown(value)}; expected a non-empty JSON array of strings`,
    )
  }
  for (const uri of value as string[]) {
    if (!ssaRedirectUris.includes(uri)) {
      throw new RegistrationError(
        'invalid_redirect_uri',
        `redirect_uris contains ${shown(uri)}, which is not one of the software statement's software_redirect_uris ${shown(ssaRedirectUris)}; register only URIs the directory holds for the software (or add it in the directory first)`,
      )
    }
  }
  return [...new Set(value as string[])]
}

/** `scope`: space-separated from openid, accounts, payments; accounts needs AISP, payments PISP. */
export function checkScope(claims: Record<string, unknown>, roles: SoftwareRole[]): string[] {
  const value = stringClaim(claims, 'scope')
  const scopes = [...new Set(value.split(' ').filter(Boolean))]
  const unknown = scopes.filter((s) => !(ALLOWED_SCOPES as readonly string[]).includes(s))
  if (unknown.length)
    throw invalid(
      `scope contains ${shown(unknown.join(' '))}; expected a space-separated list from "openid accounts payments"`,
    )
  if (!scopes.includes('openid'))
    throw invalid(
      `scope is ${shown(value)} without openid; expected openid plus accounts and/or payments (the authorisation uses OpenID Connect)`,
    )
  if (!scopes.includes('accounts') && !scopes.includes('payments'))
    throw invalid(`scope is ${shown(value)}; expected accounts and/or payments besides openid`)
  if (scopes.includes('accounts') && !roles.includes('AISP'))
    throw invalid(
      `scope includes accounts but the software statement's software_roles are ${shown(roles)}; accounts needs the AISP role`,
    )
  if (scopes.includes('payments') && !roles.includes('PISP'))
    throw invalid(
      `scope includes payments but the software statement's software_roles are ${shown(roles)}; payments needs the PISP role`,
    )
  return scopes
}

/** `response_types` within code and code id_token (the order of the words in a value does not matter). */
export function checkResponseTypes(claims: Record<string, unknown>): string[] {
  const value = stringArrayClaim(claims, 'response_types')
  const normalised = value.map((v) => [...new Set(v.split(' ').filter(Boolean))].sort().join(' '))
  const unknown = normalised.filter((v) => !(ALLOWED_RESPONSE_TYPES as readonly string[]).includes(v))
  if (unknown.length)
    throw invalid(`response_types contains ${shown(unknown)}; expected only "code" and "code id_token"`)
  return [...new Set(normalised)]
}
