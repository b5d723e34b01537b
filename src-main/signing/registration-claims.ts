import { randomUUID } from 'node:crypto'
import type { EnvironmentKind } from '../contract/environment.ts'
import { decodeJwtParts } from '../core/jwt-parts.ts'

/** The registration form as a UI holds it: every field optional, defaults from the bank's spec. */
export interface RegistrationForm {
  /** The software statement assertion (SSA) from the directory. */
  softwareStatement: string
  /** Default: every `software_redirect_uris` of the SSA. */
  redirectUris?: string[]
  /** Default `private_key_jwt`. `client_secret_basic` is accepted by sandboxes only. */
  tokenEndpointAuthMethod?: string
  /** Default: `openid` plus `accounts` (AISP role) and `payments` (PISP role). */
  scope?: string
  /** Default `authorization_code client_credentials`. */
  grantTypes?: string[]
  /** Default `code`, `code id_token`. */
  responseTypes?: string[]
  /** Default `none` (the bank's table 2.1); `PS256` is also accepted. */
  requestObjectSigningAlg?: string
  applicationType?: string
  subjectType?: string
  tokenEndpointAuthSigningAlg?: string
  idTokenSignedResponseAlg?: string
  /** Validity of the JWT: exp = iat + lifetime. Default 3600 (the reference flow). */
  lifetimeSeconds?: number
  /** Default: a new UUID. */
  jti?: string
  /** Other claims to send as they are (e.g. the local sandbox's `sandbox_profile`). */
  extraClaims?: Record<string, unknown>
}

export interface RegistrationContext {
  /** `{auth_url}` of the environment: the `aud` of the JWT. */
  authUrl: string
  environmentKind: EnvironmentKind
  /** Seconds since the epoch (the clock's `epochSeconds()`): the `iat`. */
  now: number
}

/** The claims of table 2.1, as they will be signed. */
export interface RegistrationClaims {
  iss: string
  aud: string
  iat: number
  exp: number
  jti: string
  token_endpoint_auth_signing_alg: string
  grant_types: string[]
  subject_type: string
  application_type: string
  redirect_uris: string[]
  token_endpoint_auth_method: string
  scope: string
  request_object_signing_alg: string
  response_types: string[]
  id_token_signed_response_alg: string
  software_statement: string
  [extra: string]: unknown
}

export const REGISTRATION_LIFETIME_SECONDS = 3600
export const GRANTS = ['authorization_code', 'client_credentials', 'refresh_token']
export const REQUIRED_GRANTS = ['authorization_code', 'client_credentials']
export const RESPONSE_TYPES = ['code', 'code id_token']
export const SCOPES = ['openid', 'accounts', 'payments']
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i

export interface SsaFacts {
  softwareId?: string
  roles: string[]
  redirectUris: string[]
  error?: string
}

export function ssaFacts(ssa: string): SsaFacts {
  try {
    const claims = decodeJwtParts(ssa).claims ?? {}
    const list = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [])
    return {
      ...(typeof claims.software_id === 'string' ? { softwareId: claims.software_id } : {}),
      roles: list(claims.software_roles),
      redirectUris: list(claims.software_redirect_uris),
    }
  } catch (err) {
    return { roles: [], redirectUris: [], error: (err as Error).message }
  }
}

/** The scope a software statement's roles allow: openid, accounts for AISP, payments for PISP. */
export function scopeForRoles(roles: string[]): string {
  return [
    'openid',
    ...(roles.includes('AISP') ? ['accounts'] : []),
    ...(roles.includes('PISP') ? ['payments'] : []),
  ].join(' ')
}

/** Fills the form's defaults and returns the claims that would be signed (not yet validated). */
export function buildRegistrationClaims(form: RegistrationForm, ctx: RegistrationContext): RegistrationClaims {
  const ssa = ssaFacts(form.softwareStatement)
  const iat = ctx.now
  return {
    ...(form.extraClaims ?? {}),
    iss: ssa.softwareId ?? '',
    aud: ctx.authUrl,
    iat,
    exp: iat + (form.lifetimeSeconds ?? REGISTRATION_LIFETIME_SECONDS),
    jti: form.jti ?? randomUUID(),
    token_endpoint_auth_signing_alg: form.tokenEndpointAuthSigningAlg ?? 'PS256',
    grant_types: form.grantTypes ?? [...REQUIRED_GRANTS],
    subject_type: form.subjectType ?? 'public',
    application_type: form.applicationType ?? 'web',
    redirect_uris: form.redirectUris ?? ssa.redirectUris,
    token_endpoint_auth_method: form.tokenEndpointAuthMethod ?? 'private_key_jwt',
    scope: form.scope ?? scopeForRoles(ssa.roles),
    request_object_signing_alg: form.requestObjectSigningAlg ?? 'none',
    response_types: form.responseTypes ?? [...RESPONSE_TYPES],
    id_token_signed_response_alg: form.idTokenSignedResponseAlg ?? 'PS256',
    software_statement: form.softwareStatement,
  }
}
