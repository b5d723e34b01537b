import { PROFILE_CLAIM, PROFILE_NAMES, defaultProfile, isProfileName, profileFromName } from '../client-profile.ts'
import type { ClientProfile } from '../types.ts'
import { invalid, stringClaim } from './registration-claim-values.ts'
import { shown } from './registration-error.ts'

/**
 * The rules of the registration request on how the client authenticates and signs: its token endpoint
 * method (and the tls_client_auth extension's subject DN), its algorithms, and the client profile they
 * add up to.
 */

export const ALLOWED_AUTH_METHODS = ['private_key_jwt', 'client_secret_basic', 'tls_client_auth'] as const

export type TokenEndpointAuthMethod = (typeof ALLOWED_AUTH_METHODS)[number]
export type RequestObjectSigningAlg = 'PS256' | 'none'

function checkPs256(claims: Record<string, unknown>, name: string): 'PS256' {
  const value = stringClaim(claims, name)
  if (value !== 'PS256') throw invalid(`${name} is ${shown(value)}; expected "PS256"`)
  return 'PS256'
}

/** `token_endpoint_auth_signing_alg` = PS256. */
export const checkTokenEndpointAuthSigningAlg = (claims: Record<string, unknown>) =>
  checkPs256(claims, 'token_endpoint_auth_signing_alg')
/** `id_token_signed_response_alg` = PS256. */
export const checkIdTokenSignedResponseAlg = (claims: Record<string, unknown>) =>
  checkPs256(claims, 'id_token_signed_response_alg')

/**
 * `token_endpoint_auth_method`: private_key_jwt, or client_secret_basic (sandbox, permissive profile); with
 * the tls_client_auth extension also tls_client_auth, which is refused, saying so, without it.
 */
export function checkTokenEndpointAuthMethod(
  claims: Record<string, unknown>,
  tlsClientAuth = false,
): TokenEndpointAuthMethod {
  const value = stringClaim(claims, 'token_endpoint_auth_method')
  if (value === 'tls_client_auth' && !tlsClientAuth) {
    throw invalid(
      'token_endpoint_auth_method is "tls_client_auth", which this bank does not offer (spec table 2.1: private_key_jwt, or ' +
        'client_secret_basic in the sandbox); the local sandbox offers it only as an extension beyond the spec (ob-console sandbox --tls-client-auth)',
    )
  }
  if (!(ALLOWED_AUTH_METHODS as readonly string[]).includes(value)) {
    throw invalid(
      `token_endpoint_auth_method is ${shown(value)}; expected "private_key_jwt" (or "client_secret_basic", accepted by the sandbox only)`,
    )
  }
  return value as TokenEndpointAuthMethod
}

/** `tls_client_auth_subject_dn` (RFC 8705 section 2.1.2): required with tls_client_auth, the registering transport certificate's subject. */
export function checkTlsClientAuthSubjectDn(claims: Record<string, unknown>, certificateSubjectDns: string[]): string {
  const value = claims.tls_client_auth_subject_dn
  if (typeof value !== 'string' || !value) {
    throw invalid(
      `tls_client_auth_subject_dn is ${shown(value)}; a tls_client_auth client registers the subject DN of its transport certificate ` +
        `(RFC 8705), e.g. ${shown(certificateSubjectDns[0] ?? 'CN=…,OU=…,O=…,C=GB')}`,
    )
  }
  if (certificateSubjectDns.length && !certificateSubjectDns.includes(value)) {
    throw invalid(
      `tls_client_auth_subject_dn is ${shown(value)} but the transport certificate of this request has the subject ` +
        `${shown(certificateSubjectDns[0])}; register the subject of the certificate the client will present`,
    )
  }
  return value
}

/** `request_object_signing_alg`: none or PS256. */
export function checkRequestObjectSigningAlg(claims: Record<string, unknown>): RequestObjectSigningAlg {
  const value = stringClaim(claims, 'request_object_signing_alg')
  if (value !== 'none' && value !== 'PS256')
    throw invalid(`request_object_signing_alg is ${shown(value)}; expected "none" (permissive profile) or "PS256"`)
  return value
}

/**
 * The client profile: the `sandbox_profile` claim when given, else the default (permissive when the
 * client registers client_secret_basic, `none` request objects or application_type mobile, else strict). A strict profile with a
 * permissive-only choice is refused, naming both.
 */
export function resolveProfile(
  claims: Record<string, unknown>,
  method: TokenEndpointAuthMethod,
  requestObjectAlg: RequestObjectSigningAlg,
  applicationType: 'web' | 'mobile' = 'web',
): ClientProfile {
  const requested = claims[PROFILE_CLAIM]
  if (requested === undefined) return defaultProfile(method, requestObjectAlg, applicationType)
  if (!isProfileName(requested))
    throw invalid(
      `${PROFILE_CLAIM} is ${shown(requested)}; expected one of ${PROFILE_NAMES.map((n) => `"${n}"`).join(', ')} (or leave it out)`,
    )
  const profile = profileFromName(requested)
  if (profile.security === 'strict' && method === 'client_secret_basic') {
    throw invalid(
      `${PROFILE_CLAIM} is "${requested}" but token_endpoint_auth_method is "client_secret_basic"; a strict client authenticates with private_key_jwt only (pick a permissive profile to use client_secret_basic)`,
    )
  }
  if (profile.security === 'strict' && requestObjectAlg === 'none') {
    throw invalid(
      `${PROFILE_CLAIM} is "${requested}" but request_object_signing_alg is "none"; a strict client signs its request objects with PS256 (pick a permissive profile to use "none")`,
    )
  }
  if (profile.security === 'strict' && applicationType !== 'web') {
    throw invalid(
      `${PROFILE_CLAIM} is "${requested}" but application_type is "${applicationType}"; a strict client registers application_type "web", as spec table 2.1 shows (pick a permissive profile to register "${applicationType}")`,
    )
  }
  return profile
}
