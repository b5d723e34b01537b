import type { SoftwareRole, SoftwareStatementClaims } from '../../directory/types.ts'
import { PROFILE_CLAIM, PROFILE_NAMES, defaultProfile, isProfileName, profileFromName } from '../client-profile.ts'
import type { ClientProfile } from '../types.ts'
import { RegistrationError, shown } from './registration-error.ts'

/**
 * The claim rules of the bank's registration request (spec section 2.1, with DCR 3.2 where the bank's
 * table says nothing). Each rule is a small pure function that throws a RegistrationError naming the
 * claim, the value found and what was expected; `validateRegistrationClaims` runs them all.
 */

/** Clock skew tolerated on `iat` and `exp`, in seconds. */
export const CLOCK_SKEW_SECONDS = 60
/** Longest accepted validity of a registration JWT (`exp - iat`): the reference flow's hour, plus the skew. */
export const MAX_REGISTRATION_JWT_LIFETIME_SECONDS = 3600 + CLOCK_SKEW_SECONDS

export const ALLOWED_GRANT_TYPES = ['authorization_code', 'client_credentials', 'refresh_token'] as const
export const REQUIRED_GRANT_TYPES = ['authorization_code', 'client_credentials'] as const
export const ALLOWED_RESPONSE_TYPES = ['code', 'code id_token'] as const
export const ALLOWED_SCOPES = ['openid', 'accounts', 'payments'] as const
export const ALLOWED_AUTH_METHODS = ['private_key_jwt', 'client_secret_basic', 'tls_client_auth'] as const

export type TokenEndpointAuthMethod = (typeof ALLOWED_AUTH_METHODS)[number]
export type RequestObjectSigningAlg = 'PS256' | 'none'

/** A registration request whose claims all passed. */
export interface ValidRegistration {
  jti: string
  iat: number
  exp: number
  redirectUris: string[]
  tokenEndpointAuthMethod: TokenEndpointAuthMethod
  tokenEndpointAuthSigningAlg: 'PS256'
  grantTypes: string[]
  subjectType: 'public'
  applicationType: 'web' | 'mobile'
  scopes: string[]
  requestObjectSigningAlg: RequestObjectSigningAlg
  responseTypes: string[]
  idTokenSignedResponseAlg: 'PS256'
  softwareStatement: string
  profile: ClientProfile
  /** tls_client_auth clients (the extension): the transport certificate's subject DN they authenticate with. */
  tlsClientAuthSubjectDn?: string
}

export interface RegistrationRuleContext {
  /** `{auth_url}`: the only accepted `aud`. */
  authUrl: string
  /** Seconds since the epoch against which `iat` and `exp` are checked. */
  nowSeconds: number
  /** The verified software statement's claims. */
  ssa: SoftwareStatementClaims
  /** The extension beyond the bank's spec: tls_client_auth accepted. */
  tlsClientAuth?: boolean
  /** The subject DNs of the client certificate of the registration request (RFC 4514 and certificate order). */
  certificateSubjectDns?: string[]
}

const invalid = (message: string) => new RegistrationError('invalid_client_metadata', message)

function stringClaim(claims: Record<string, unknown>, name: string): string {
  const value = claims[name]
  if (value === undefined) throw invalid(`the registration JWT has no ${name} claim; it is required (spec section 2.1)`)
  if (typeof value !== 'string' || value === '')
    throw invalid(`${name} is ${shown(value)}; expected a non-empty string`)
  return value
}

function stringArrayClaim(claims: Record<string, unknown>, name: string): string[] {
  const value = claims[name]
  if (value === undefined) throw invalid(`the registration JWT has no ${name} claim; it is required (spec section 2.1)`)
  if (!Array.isArray(value) || value.length === 0 || value.some((v) => typeof v !== 'string' || v === '')) {
    throw invalid(`${name} is ${shown(value)}; expected a non-empty JSON array of strings`)
  }
  return value as string[]
}

function integerClaim(claims: Record<string, unknown>, name: string): number {
  const value = claims[name]
  if (value === undefined) throw invalid(`the registration JWT has no ${name} claim; it is required (spec section 2.1)`)
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0)
    throw invalid(`${name} is ${shown(value)}; expected an integer number of seconds since the epoch`)
  return value
}

/** `iss` must be the software statement's `software_id`. */
export function checkIssuer(claims: Record<string, unknown>, ssa: Pick<SoftwareStatementClaims, 'software_id'>): void {
  const iss = stringClaim(claims, 'iss')
  if (iss !== ssa.software_id)
    throw invalid(`iss is ${shown(iss)}; expected the software statement's software_id ${shown(ssa.software_id)}`)
  if (claims.software_id !== undefined && claims.software_id !== ssa.software_id) {
    throw invalid(
      `software_id is ${shown(claims.software_id)}; when present it must equal the software statement's software_id ${shown(ssa.software_id)}`,
    )
  }
}

/**
 * `aud` must be the authorisation server address `{auth_url}`, exactly (no trailing slash or path). The
 * bank's spec wins over the Open Banking DCR reading, where `aud` is the ASPSP's organisation id.
 */
export function checkAudience(claims: Record<string, unknown>, authUrl: string): void {
  const aud = claims.aud
  if (aud === undefined)
    throw invalid(
      `the registration JWT has no aud claim; expected "${authUrl}" (the authorisation server address, spec section 2.1)`,
    )
  if (aud !== authUrl) {
    throw invalid(
      `aud is ${shown(aud)}; expected exactly "${authUrl}" (the authorisation server address {auth_url}, no trailing slash or path; this bank does not use the Open Banking reading of aud as the ASPSP's organisation id)`,
    )
  }
}

/** `iat` not in the future, `exp` not passed, and at most an hour (plus skew) between them. */
export function checkTimes(claims: Record<string, unknown>, nowSeconds: number): { iat: number; exp: number } {
  const iat = integerClaim(claims, 'iat')
  const exp = integerClaim(claims, 'exp')
  if (iat > nowSeconds + CLOCK_SKEW_SECONDS)
    throw invalid(
      `iat is ${iat}, ${iat - nowSeconds} s in the future; expected the time the JWT was made (at most ${CLOCK_SKEW_SECONDS} s of clock skew; now is ${nowSeconds})`,
    )
  if (exp <= nowSeconds)
    throw invalid(
      `exp is ${exp}: the registration JWT expired ${nowSeconds - exp} s ago (now is ${nowSeconds}); make a new one (the reference flow uses exp = iat + 3600)`,
    )
  if (exp <= iat) throw invalid(`exp (${exp}) is not after iat (${iat}); the reference flow uses exp = iat + 3600`)
  if (exp - iat > MAX_REGISTRATION_JWT_LIFETIME_SECONDS)
    throw invalid(
      `exp - iat is ${exp - iat} s; expected at most ${MAX_REGISTRATION_JWT_LIFETIME_SECONDS} s (the reference flow uses exp = iat + 3600)`,
    )
  return { iat, exp }
}

/** RFC 4122 textual form: 8-4-4-4-12 hexadecimal digits (any version, either case). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * `jti` a UUID (bank spec table 2.1: "Unique JWT ID (UUID)"); its uniqueness is checked against the replay
 * cache once the signature is verified.
 */
export function checkJti(claims: Record<string, unknown>): string {
  const jti = stringClaim(claims, 'jti')
  if (!UUID.test(jti))
    throw invalid(
      `jti is ${shown(jti.length > 60 ? `${jti.slice(0, 57)}...` : jti)}; expected a UUID such as "3f0c4c2e-8a5b-4d8e-9a7d-2b1f6c0e4a11" (spec table 2.1: "Unique JWT ID (UUID)"), a new one for every registration JWT`,
    )
  return jti
}

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

/** `request_object_signing_alg`: none or PS256. */
export function checkRequestObjectSigningAlg(claims: Record<string, unknown>): RequestObjectSigningAlg {
  const value = stringClaim(claims, 'request_object_signing_alg')
  if (value !== 'none' && value !== 'PS256')
    throw invalid(`request_object_signing_alg is ${shown(value)}; expected "none" (permissive profile) or "PS256"`)
  return value
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

/** `software_statement` present (its signature and contents are checked by the directory). */
export function checkSoftwareStatementPresent(claims: Record<string, unknown>): string {
  const value = claims.software_statement
  if (value === undefined)
    throw new RegistrationError(
      'invalid_software_statement',
      'the registration JWT has no software_statement claim; expected the software statement assertion (a JWT) from the directory',
    )
  if (typeof value !== 'string' || value.split('.').length !== 3)
    throw new RegistrationError(
      'invalid_software_statement',
      `software_statement is ${shown(value)}; expected the software statement assertion, a signed JWT (three dot-separated parts)`,
    )
  return value
}

/** The transport certificate's organisation (subject OU) must be the software statement's `org_id`. */
export function checkTransportOrganisation(
  certificateOrgId: string | undefined,
  ssa: Pick<SoftwareStatementClaims, 'org_id'>,
): void {
  if (certificateOrgId !== ssa.org_id) {
    throw new RegistrationError(
      'unapproved_software_statement',
      `the transport certificate's organisation (subject OU) is ${shown(certificateOrgId)} but the software statement's org_id is ${shown(ssa.org_id)}; register over mutual TLS with the transport certificate the directory issued to this software`,
    )
  }
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

/**
 * Runs every claim rule of the registration request, in the order of the spec's table. Throws the first
 * RegistrationError; returns the normalised registration.
 */
export function validateRegistrationClaims(
  claims: Record<string, unknown>,
  ctx: RegistrationRuleContext,
): ValidRegistration {
  checkIssuer(claims, ctx.ssa)
  checkAudience(claims, ctx.authUrl)
  const { iat, exp } = checkTimes(claims, ctx.nowSeconds)
  const jti = checkJti(claims)
  const tokenEndpointAuthSigningAlg = checkTokenEndpointAuthSigningAlg(claims)
  const grantTypes = checkGrantTypes(claims)
  const subjectType = checkSubjectType(claims)
  const applicationType = checkApplicationType(claims)
  const redirectUris = checkRedirectUris(claims, ctx.ssa.software_redirect_uris)
  const tokenEndpointAuthMethod = checkTokenEndpointAuthMethod(claims, ctx.tlsClientAuth)
  const tlsClientAuthSubjectDn =
    tokenEndpointAuthMethod === 'tls_client_auth'
      ? checkTlsClientAuthSubjectDn(claims, ctx.certificateSubjectDns ?? [])
      : undefined
  const scopes = checkScope(claims, ctx.ssa.software_roles)
  const requestObjectSigningAlg = checkRequestObjectSigningAlg(claims)
  const responseTypes = checkResponseTypes(claims)
  const idTokenSignedResponseAlg = checkIdTokenSignedResponseAlg(claims)
  const softwareStatement = checkSoftwareStatementPresent(claims)
  const profile = resolveProfile(claims, tokenEndpointAuthMethod, requestObjectSigningAlg, applicationType)
  return {
    jti,
    iat,
    exp,
    redirectUris,
    tokenEndpointAuthMethod,
    tokenEndpointAuthSigningAlg,
    grantTypes,
    subjectType,
    applicationType,
    scopes,
    requestObjectSigningAlg,
    responseTypes,
    idTokenSignedResponseAlg,
    softwareStatement,
    profile,
    ...(tlsClientAuthSubjectDn ? { tlsClientAuthSubjectDn } : {}),
  }
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
