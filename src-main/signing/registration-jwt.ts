import { randomUUID } from 'node:crypto'
import { SignJWT } from 'jose'
import type { CheckResult } from '../contract/checks.ts'
import type { EnvironmentKind } from '../contract/environment.ts'
import { AppError } from '../core/app-error.ts'
import { decodeJwtParts } from '../core/jwt-parts.ts'
import { check } from './check.ts'
import type { SigningKey } from './signing-key.ts'

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
const GRANTS = ['authorization_code', 'client_credentials', 'refresh_token']
const REQUIRED_GRANTS = ['authorization_code', 'client_credentials']
const RESPONSE_TYPES = ['code', 'code id_token']
const SCOPES = ['openid', 'accounts', 'payments']
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i

interface SsaFacts {
  softwareId?: string
  roles: string[]
  redirectUris: string[]
  error?: string
}

function ssaFacts(ssa: string): SsaFacts {
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

function redirectUriProblem(uri: string, kind: EnvironmentKind): string | undefined {
  let url: URL
  try {
    url = new URL(uri)
  } catch {
    return `${uri} is not an absolute URL`
  }
  if (url.hash) return `${uri} has a fragment; redirect URIs may not`
  if (kind === 'production' && url.protocol !== 'https:') return `${uri} is not https (production requires https)`
  if (kind === 'production' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname))
    return `${uri} points at this machine (production refuses localhost)`
  return undefined
}

/**
 * Validates every claim of the registration JWT (bank spec table 2.1) and returns one check per claim,
 * usable as-you-type by a UI. Nothing is signed.
 *
 * @example const { checks, valid } = validateRegistration({ softwareStatement: ssa }, { authUrl, environmentKind: 'local-sandbox', now: clock.epochSeconds() })
 */
export function validateRegistration(
  form: RegistrationForm,
  ctx: RegistrationContext,
): { claims: RegistrationClaims; checks: CheckResult[]; valid: boolean } {
  const claims = buildRegistrationClaims(form, ctx)
  const ssa = ssaFacts(form.softwareStatement)
  const production = ctx.environmentKind === 'production'
  const checks: CheckResult[] = []

  checks.push(
    check(
      'software_statement',
      !ssa.error && Boolean(ssa.softwareId),
      'the SSA (a JWT) with software_id, software_roles, software_redirect_uris',
      ssa.error
        ? `unreadable: ${ssa.error}`
        : ssa.softwareId
          ? `software ${ssa.softwareId}, roles ${ssa.roles.join(' ') || 'none'}`
          : 'no software_id',
      'paste the software statement assertion exactly as the directory issued it',
    ),
  )
  checks.push(
    check(
      'iss',
      Boolean(ssa.softwareId) && claims.iss === ssa.softwareId,
      ssa.softwareId ?? 'the SSA software_id',
      claims.iss || 'absent',
      'iss is the software statement ID: it must equal software_id in the SSA',
    ),
  )

  let audOk = false
  try {
    const u = new URL(ctx.authUrl)
    audOk =
      claims.aud === ctx.authUrl &&
      (u.pathname === '/' || u.pathname === '') &&
      !ctx.authUrl.endsWith('/') &&
      !u.search &&
      !u.hash
  } catch {
    audOk = false
  }
  checks.push(
    check(
      'aud',
      audOk,
      '{auth_url}: the authorisation server address, no trailing slash or path',
      claims.aud,
      "set the environment's auth_url to the authorisation server origin, e.g. https://auth.bank.example (the bank uses auth_url, not the OB org_id)",
    ),
  )

  const lifetime = claims.exp - claims.iat
  checks.push(
    check('iat', Number.isInteger(claims.iat) && claims.iat > 0, 'now, in whole seconds since the epoch', claims.iat),
  )
  checks.push(
    check(
      'exp',
      Number.isInteger(claims.exp) && lifetime > 0 && lifetime <= REGISTRATION_LIFETIME_SECONDS,
      `iat + ${REGISTRATION_LIFETIME_SECONDS} (the reference flow), at most an hour after iat`,
      `iat + ${lifetime}`,
      'keep the JWT valid for an hour at most; 3600 is what the reference flow uses',
    ),
  )
  checks.push(
    check('jti', UUID.test(claims.jti), 'a new UUID', claims.jti, 'use a fresh UUID for every registration request'),
  )
  checks.push(
    check(
      'token_endpoint_auth_signing_alg',
      claims.token_endpoint_auth_signing_alg === 'PS256',
      'PS256',
      claims.token_endpoint_auth_signing_alg,
    ),
  )

  const grants = claims.grant_types
  const unknownGrants = grants.filter((g) => !GRANTS.includes(g))
  const missingGrants = REQUIRED_GRANTS.filter((g) => !grants.includes(g))
  checks.push(
    check(
      'grant_types',
      unknownGrants.length === 0 && missingGrants.length === 0,
      'authorization_code and client_credentials (refresh_token optional)',
      grants,
      unknownGrants.length ? `remove ${unknownGrants.join(', ')}` : `add ${missingGrants.join(', ')}`,
    ),
  )
  checks.push(check('subject_type', claims.subject_type === 'public', 'public', claims.subject_type))
  checks.push(check('application_type', claims.application_type === 'web', 'web', claims.application_type))

  const uris = claims.redirect_uris
  const outside = uris.filter((u) => !ssa.redirectUris.includes(u))
  const badUris = uris.map((u) => redirectUriProblem(u, ctx.environmentKind)).filter((p): p is string => Boolean(p))
  checks.push(
    check(
      'redirect_uris',
      uris.length > 0 && outside.length === 0 && badUris.length === 0,
      `one or more of the SSA's software_redirect_uris (${ssa.redirectUris.join(', ') || 'none'})`,
      uris,
      uris.length === 0
        ? 'pick at least one redirect URI'
        : outside.length
          ? `${outside.join(', ')} is not in the software statement: add it in the directory first, or pick one the SSA lists`
          : badUris.join('; '),
    ),
  )

  const method = claims.token_endpoint_auth_method
  const methods = production ? ['private_key_jwt'] : ['private_key_jwt', 'client_secret_basic']
  checks.push(
    check(
      'token_endpoint_auth_method',
      methods.includes(method),
      methods.join(' or '),
      method,
      production && method === 'client_secret_basic'
        ? 'production requires private_key_jwt; client_secret_basic is accepted by the sandbox only'
        : `use ${methods.join(' or ')}`,
    ),
  )

  const scopes = claims.scope.split(' ').filter(Boolean)
  const unknownScopes = scopes.filter((s) => !SCOPES.includes(s))
  const roleProblems = [
    ...(scopes.includes('accounts') && !ssa.roles.includes('AISP') ? ['accounts needs the AISP role'] : []),
    ...(scopes.includes('payments') && !ssa.roles.includes('PISP') ? ['payments needs the PISP role'] : []),
  ]
  const scopeOk =
    unknownScopes.length === 0 &&
    roleProblems.length === 0 &&
    scopes.includes('openid') &&
    (scopes.includes('accounts') || scopes.includes('payments'))
  checks.push(
    check(
      'scope',
      scopeOk,
      `${scopeForRoles(ssa.roles)} (from the SSA roles ${ssa.roles.join(' ') || 'none'})`,
      claims.scope,
      unknownScopes.length
        ? `remove ${unknownScopes.join(' ')}; allowed: openid accounts payments`
        : roleProblems.length
          ? `${roleProblems.join('; ')} in the software statement`
          : 'include openid and accounts and/or payments',
    ),
  )

  checks.push(
    check(
      'request_object_signing_alg',
      ['none', 'PS256'].includes(claims.request_object_signing_alg),
      'none (bank spec table 2.1), or PS256',
      claims.request_object_signing_alg,
    ),
  )
  const responseTypes = claims.response_types.map((r) => r.split(' ').filter(Boolean).sort().join(' '))
  checks.push(
    check(
      'response_types',
      responseTypes.length > 0 && responseTypes.every((r) => RESPONSE_TYPES.includes(r)),
      'code and/or code id_token',
      claims.response_types,
      'the client may declare only code and code id_token',
    ),
  )
  checks.push(
    check(
      'id_token_signed_response_alg',
      claims.id_token_signed_response_alg === 'PS256',
      'PS256',
      claims.id_token_signed_response_alg,
    ),
  )
  return { claims, checks, valid: checks.every((c) => c.pass) }
}

/**
 * Validates then signs the registration JWT (PS256, header `kid` and `typ: JWT`). Throws CLAIMS_INVALID
 * listing every failing claim, so nothing invalid is ever sent.
 *
 * @example const { jwt } = await signRegistrationJwt({ softwareStatement: ssa }, ctx, signer)
 *          // POST {base_url}/dynamic-client-registration/v3.2/register, Content-Type: application/jwt
 */
export async function signRegistrationJwt(
  form: RegistrationForm,
  ctx: RegistrationContext,
  signer: SigningKey,
): Promise<{ jwt: string; claims: RegistrationClaims; checks: CheckResult[] }> {
  const { claims, checks, valid } = validateRegistration(form, ctx)
  if (!valid) {
    const failed = checks.filter((c) => !c.pass)
    throw new AppError('CLAIMS_INVALID', {
      what: 'Signing the registration request failed',
      cause: `${failed.length} claim${failed.length === 1 ? ' is' : 's are'} not what the bank's spec (table 2.1) requires: ${failed.map((c) => c.name).join(', ')}`,
      fix: 'correct the claims listed; each says what is expected',
      problems: failed.map((c) => ({
        code: c.name,
        message: `expected ${c.expected}, got ${c.actual}`,
        path: c.name,
        ...(c.hint ? { explanation: c.hint } : {}),
      })),
    })
  }
  return { jwt: await signRegistrationClaims(claims, signer), claims, checks }
}

/** Signs claims that `validateRegistration` passed (PS256, the signer's kid, typ JWT). */
export function signRegistrationClaims(claims: RegistrationClaims, signer: SigningKey): Promise<string> {
  return new SignJWT({ ...claims }).setProtectedHeader({ alg: 'PS256', kid: signer.kid, typ: 'JWT' }).sign(signer.key)
}
