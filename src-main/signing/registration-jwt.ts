import { SignJWT } from 'jose'
import type { CheckResult } from '../contract/checks.ts'
import type { EnvironmentKind } from '../contract/environment.ts'
import { AppError } from '../core/app-error.ts'
import { check } from './check.ts'
import {
  buildRegistrationClaims,
  GRANTS,
  REGISTRATION_LIFETIME_SECONDS,
  REQUIRED_GRANTS,
  RESPONSE_TYPES,
  SCOPES,
  scopeForRoles,
  ssaFacts,
  UUID,
  type RegistrationClaims,
  type RegistrationContext,
  type RegistrationForm,
  type SsaFacts,
} from './registration-claims.ts'
import type { SigningKey } from './signing-key.ts'

export {
  buildRegistrationClaims,
  REGISTRATION_LIFETIME_SECONDS,
  scopeForRoles,
  type RegistrationClaims,
  type RegistrationContext,
  type RegistrationForm,
} from './registration-claims.ts'

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

/** The software statement, and the claims that name the software (`iss`) and the bank (`aud`). */
function identityChecks(claims: RegistrationClaims, ssa: SsaFacts, ctx: RegistrationContext): CheckResult[] {
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
  return checks
}

/** When the request was made and how long it lasts (`iat`, `exp`), its `jti`, the token endpoint's signing alg. */
function lifetimeChecks(claims: RegistrationClaims): CheckResult[] {
  const checks: CheckResult[] = []
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
  return checks
}

/** The grant types, subject type and application type the bank allows. */
function grantChecks(claims: RegistrationClaims): CheckResult[] {
  const checks: CheckResult[] = []
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
  return checks
}

/** The redirect URIs: listed in the SSA, absolute, without a fragment, https and not this machine in production. */
function redirectUriChecks(claims: RegistrationClaims, ssa: SsaFacts, ctx: RegistrationContext): CheckResult[] {
  const checks: CheckResult[] = []
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
  return checks
}

/** The token endpoint's authentication method (production: private_key_jwt only). */
function authMethodChecks(claims: RegistrationClaims, ctx: RegistrationContext): CheckResult[] {
  const checks: CheckResult[] = []
  const method = claims.token_endpoint_auth_method
  const methods =
    ctx.environmentKind === 'production' ? ['private_key_jwt'] : ['private_key_jwt', 'client_secret_basic']
  checks.push(
    check(
      'token_endpoint_auth_method',
      methods.includes(method),
      methods.join(' or '),
      method,
      ctx.environmentKind === 'production' && method === 'client_secret_basic'
        ? 'production requires private_key_jwt; client_secret_basic is accepted by the sandbox only'
        : `use ${methods.join(' or ')}`,
    ),
  )
  return checks
}

/** The scope: openid with accounts and/or payments, each allowed by the SSA's roles. */
function scopeChecks(claims: RegistrationClaims, ssa: SsaFacts): CheckResult[] {
  const checks: CheckResult[] = []
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
  return checks
}

/** The request object's, the response types' and the ID token's algorithms and values. */
function responseChecks(claims: RegistrationClaims): CheckResult[] {
  const checks: CheckResult[] = []
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
  return checks
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
  const checks: CheckResult[] = [
    ...identityChecks(claims, ssa, ctx),
    ...lifetimeChecks(claims),
    ...grantChecks(claims),
    ...redirectUriChecks(claims, ssa, ctx),
    ...authMethodChecks(claims, ctx),
    ...scopeChecks(claims, ssa),
    ...responseChecks(claims),
  ]
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
