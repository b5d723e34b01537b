import { compactVerify, decodeJwt, decodeProtectedHeader, type JWK } from 'jose'
import type { ClientProfile } from '../types.ts'
import { ps256VerificationKey } from '../../crypto/verification-keys.ts'

/**
 * The request object rules of the sandbox's authorisation endpoint (FAPI 1.0 Advanced / OB, with the
 * permissive profile's relaxations). Each rule throws an AuthorisationRequestError naming the claim,
 * the value found and what was expected.
 */

export const REQUEST_OBJECT_SKEW_SECONDS = 60
/** nbf may be at most this far in the past, and exp at most this far after nbf (FAPI 1.0 Advanced 5.2.2). */
export const REQUEST_OBJECT_MAX_AGE_SECONDS = 3600

export type AuthorisationErrorCode =
  | 'invalid_request'
  | 'invalid_request_object'
  | 'invalid_client'
  | 'unauthorized_client'
  | 'unsupported_response_type'
  | 'invalid_scope'
  | 'request_uri_not_supported'
  | 'access_denied'

export class AuthorisationRequestError extends Error {
  constructor(
    readonly error: AuthorisationErrorCode,
    message: string,
  ) {
    super(message)
  }
}

const bad = (message: string) => new AuthorisationRequestError('invalid_request_object', message)

function shown(value: unknown): string {
  if (value === undefined) return 'absent'
  const text = JSON.stringify(value) ?? String(value)
  return text.length > 100 ? `${text.slice(0, 97)}...` : text
}

export interface DecodedRequestObject {
  alg: string
  kid?: string
  claims: Record<string, unknown>
}

/** Decodes a request object (signed or `alg: none`) without verifying it. */
export function decodeRequestObject(jwt: string): DecodedRequestObject {
  const parts = jwt.split('.')
  if (parts.length !== 3)
    throw bad(`the request parameter is not a compact JWT (found ${parts.length} dot-separated parts, expected 3)`)
  try {
    const header = decodeProtectedHeader(jwt)
    const claims = decodeJwt(jwt) as Record<string, unknown>
    return { alg: String(header.alg), ...(typeof header.kid === 'string' ? { kid: header.kid } : {}), claims }
  } catch (err) {
    throw bad(
      `the request object cannot be decoded (${(err as Error).message}); expected base64url JSON header and claims`,
    )
  }
}

/**
 * Checks the request object's alg against the client's profile and verifies a PS256 signature with the
 * software's keys (from the directory). `none` needs the permissive profile and an empty signature.
 */
export async function verifyRequestObjectSignature(
  jwt: string,
  decoded: DecodedRequestObject,
  profile: ClientProfile,
  /** The directory's JWKS of the software, or the one the client registered (oidc-provider's, read-only). */
  jwks: { readonly keys: readonly { kid?: string | undefined }[] } | undefined,
): Promise<void> {
  if (decoded.alg === 'none') {
    if (profile.security !== 'permissive') {
      throw bad(
        'the request object is unsigned (alg "none") but the client has the strict profile; sign it with PS256 and the software\'s signing key (or register with a permissive sandbox_profile)',
      )
    }
    if (jwt.split('.')[2] !== '')
      throw bad(
        'the request object has alg "none" but carries a signature; an unsigned JWT ends with an empty third part ("header.payload.")',
      )
    return
  }
  if (decoded.alg !== 'PS256')
    throw bad(
      `the request object alg is ${shown(decoded.alg)}; expected "PS256"${profile.security === 'permissive' ? ' (or "none", permissive profile)' : ''}`,
    )
  const keys = (jwks?.keys ?? []).filter((k) => decoded.kid === undefined || k.kid === decoded.kid) as JWK[]
  if (keys.length === 0)
    throw bad(
      `the request object header kid ${shown(decoded.kid)} is not in the software's JWKS (kids ${shown((jwks?.keys ?? []).map((k) => k.kid))})`,
    )
  for (const jwk of keys) {
    try {
      await compactVerify(jwt, await ps256VerificationKey(jwk), { algorithms: ['PS256'] })
      return
    } catch {
      // try the next key
    }
  }
  throw bad(
    `the request object's PS256 signature does not verify with the software's key ${shown(decoded.kid ?? keys[0]?.kid)}; sign it with the software's signing key`,
  )
}

export interface TimeRuleOptions {
  nowSeconds: number
  /** Strict clients must send nbf (FAPI 1.0 Advanced); permissive ones may leave it out. */
  requireNbf: boolean
}

/** `exp` required and not passed; `nbf` not in the future, at most 60 minutes old, at most 60 minutes before exp. */
export function checkRequestObjectTimes(claims: Record<string, unknown>, opts: TimeRuleOptions): void {
  const { nowSeconds: now } = opts
  const skew = REQUEST_OBJECT_SKEW_SECONDS
  const { exp, nbf, iat } = claims
  if (exp === undefined) throw bad('the request object has no exp claim; it is required (e.g. now + 300 s)')
  if (typeof exp !== 'number' || !Number.isFinite(exp))
    throw bad(`the request object exp is ${shown(exp)}; expected a number of seconds since the epoch`)
  if (exp <= now - skew)
    throw bad(
      `the request object expired: exp is ${exp}, ${now - exp} s ago (now is ${now}); make a new request object`,
    )
  if (nbf === undefined) {
    if (opts.requireNbf)
      throw bad(
        'the request object has no nbf claim; a strict client must send nbf (FAPI 1.0 Advanced), at most 60 minutes before exp',
      )
  } else {
    if (typeof nbf !== 'number' || !Number.isFinite(nbf))
      throw bad(`the request object nbf is ${shown(nbf)}; expected a number of seconds since the epoch`)
    if (nbf > now + skew)
      throw bad(`the request object is not valid yet: nbf is ${nbf}, ${nbf - now} s in the future (now is ${now})`)
    if (nbf < now - REQUEST_OBJECT_MAX_AGE_SECONDS - skew)
      throw bad(`the request object nbf is ${nbf}, ${now - nbf} s in the past; expected at most 60 minutes in the past`)
    if (exp - nbf > REQUEST_OBJECT_MAX_AGE_SECONDS)
      throw bad(`the request object exp is ${exp - nbf} s after nbf; expected at most 3600 s (60 minutes)`)
  }
  if (iat !== undefined && (typeof iat !== 'number' || iat > now + skew))
    throw bad(`the request object iat is ${shown(iat)}; expected a time not in the future (now is ${now})`)
}

/** `iss` = client_id, `aud` = the issuer, `client_id` (when present) = client_id. */
export function checkRequestObjectParties(claims: Record<string, unknown>, clientId: string, issuer: string): void {
  if (claims.iss !== clientId)
    throw bad(`the request object iss is ${shown(claims.iss)}; expected the client_id "${clientId}"`)
  const aud = claims.aud
  const audOk = aud === issuer || (Array.isArray(aud) && aud.includes(issuer))
  if (!audOk)
    throw bad(`the request object aud is ${shown(aud)}; expected the issuer "${issuer}" (from the discovery document)`)
  if (claims.client_id !== undefined && claims.client_id !== clientId)
    throw bad(
      `the request object client_id is ${shown(claims.client_id)}; expected "${clientId}", the client_id of the query`,
    )
}

/** The consent id the request object asks to authorise: `claims.id_token` and/or `claims.userinfo` `openbanking_intent_id.value`. */
export function intentIdOf(claims: Record<string, unknown>): string {
  const param = claims.claims
  if (param === undefined)
    throw new AuthorisationRequestError(
      'invalid_request',
      'the request object has no claims parameter; expected {"id_token":{"openbanking_intent_id":{"value":"<ConsentId>","essential":true}}}',
    )
  const parsed = typeof param === 'string' ? safeJson(param) : param
  if (typeof parsed !== 'object' || parsed === null)
    throw new AuthorisationRequestError(
      'invalid_request',
      `the claims parameter is ${shown(param)}; expected a JSON object`,
    )
  const values = ['id_token', 'userinfo']
    .map(
      (member) =>
        (
          (parsed as Record<string, Record<string, { value?: unknown } | null> | undefined>)[member]
            ?.openbanking_intent_id ?? undefined
        )?.value,
    )
    .filter((v) => v !== undefined)
  if (values.length === 0)
    throw new AuthorisationRequestError(
      'invalid_request',
      'the claims parameter asks for no openbanking_intent_id value; expected claims.id_token.openbanking_intent_id.value = the ConsentId to authorise',
    )
  const [first] = values
  if (typeof first !== 'string' || first === '')
    throw new AuthorisationRequestError(
      'invalid_request',
      `openbanking_intent_id value is ${shown(first)}; expected the ConsentId string`,
    )
  if (values.some((v) => v !== first))
    throw new AuthorisationRequestError(
      'invalid_request',
      `claims.id_token and claims.userinfo name different openbanking_intent_id values (${shown(values)}); expected the same ConsentId`,
    )
  return first
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}
