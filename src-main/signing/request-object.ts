import { randomUUID } from 'node:crypto'
import { SignJWT, UnsecuredJWT } from 'jose'
import type { EnvironmentKind } from '../contract/environment.ts'
import { AppError } from '../core/app-error.ts'
import type { SigningKey } from './signing-key.ts'

/** Both acr values of the Open Banking security profile: SCA, or CA where an exemption applies. */
export const OB_ACR_VALUES = ['urn:openbanking:psd2:sca', 'urn:openbanking:psd2:ca']
/** Default lifetime (exp - nbf): well under the hour FAPI allows. */
export const REQUEST_OBJECT_LIFETIME_SECONDS = 300

export interface RequestObjectInput {
  clientId: string
  /** The authorisation server's `issuer` (discovery): the `aud`. */
  issuer: string
  redirectUri: string
  /** e.g. `openid accounts`; must include openid. */
  scope: string
  state: string
  nonce: string
  /** The ConsentId the PSU authorises: `openbanking_intent_id`. */
  consentId: string
  /** Seconds since the epoch: `nbf` and `iat`. */
  now: number
  lifetimeSeconds?: number
  /** `PS256` (needs `signer`) or `none` (sandboxes only). */
  alg: 'PS256' | 'none'
  signer?: SigningKey
  environmentKind: EnvironmentKind
  /** Default both OB acr values, essential. Pass [] to leave acr out (some banks ask for that). */
  acrValues?: string[]
  /** Also ask for openbanking_intent_id in userinfo (default true, as the reference shows). */
  includeUserinfo?: boolean
  maxAge?: number
  responseType?: 'code id_token' | 'code'
}

function invalid(cause: string, fix: string): AppError {
  return new AppError('INVALID_INPUT', { what: 'Making the request object failed', cause, fix })
}

/**
 * The request object of the hybrid flow (reference section 5): iss = client_id, aud = the issuer,
 * response_type `code id_token`, client_id, redirect_uri, scope, state, nonce, exp, nbf, iat, jti and
 * `claims` asking for `openbanking_intent_id` (and acr) in the ID token. Signed PS256, or `alg: none`
 * where the environment allows it (never in production).
 *
 * @example const { jwt } = await createRequestObject({ clientId, issuer, redirectUri, scope: 'openid accounts', state, nonce, consentId, now, alg: 'PS256', signer, environmentKind: 'production' })
 */
export async function createRequestObject(
  input: RequestObjectInput,
): Promise<{ jwt: string; claims: Record<string, unknown> }> {
  const lifetime = input.lifetimeSeconds ?? REQUEST_OBJECT_LIFETIME_SECONDS
  if (!input.scope.split(' ').includes('openid'))
    throw invalid(
      `scope "${input.scope}" lacks openid`,
      'use "openid accounts" or "openid payments": the hybrid flow is OpenID Connect',
    )
  if (!input.consentId)
    throw invalid('no ConsentId was given', 'create the consent first; its ConsentId becomes openbanking_intent_id')
  if (!input.state || !input.nonce)
    throw invalid('state or nonce is empty', 'use fresh random values for both (the ID token is checked against them)')
  if (!(lifetime > 0 && lifetime <= 3600))
    throw invalid(`a lifetime of ${lifetime} s`, 'FAPI allows at most 60 minutes between nbf and exp')
  if (input.alg === 'none' && input.environmentKind === 'production') {
    throw new AppError('INVALID_INPUT', {
      what: 'Making the request object failed',
      cause: 'alg "none" is not allowed in production (FAPI requires PS256 or ES256)',
      fix: 'sign the request object with PS256 and the registered signing key',
    })
  }
  if (input.alg === 'PS256' && !input.signer)
    throw invalid('PS256 was asked for but no signing key was given', 'pass the client signing key')
  const acr = input.acrValues ?? OB_ACR_VALUES
  const intent = { value: input.consentId, essential: true }
  const claims: Record<string, unknown> = {
    iss: input.clientId,
    aud: input.issuer,
    response_type: input.responseType ?? 'code id_token',
    client_id: input.clientId,
    redirect_uri: input.redirectUri,
    scope: input.scope,
    state: input.state,
    nonce: input.nonce,
    iat: input.now,
    nbf: input.now,
    exp: input.now + lifetime,
    jti: randomUUID(),
    ...(input.maxAge !== undefined ? { max_age: input.maxAge } : {}),
    claims: {
      id_token: { openbanking_intent_id: intent, ...(acr.length ? { acr: { essential: true, values: acr } } : {}) },
      ...(input.includeUserinfo === false ? {} : { userinfo: { openbanking_intent_id: intent } }),
    },
  }
  const jwt =
    input.alg === 'none'
      ? new UnsecuredJWT(claims).encode()
      : await new SignJWT(claims).setProtectedHeader({ alg: 'PS256', kid: input.signer!.kid }).sign(input.signer!.key)
  return { jwt, claims }
}
