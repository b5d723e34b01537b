import { randomUUID } from 'node:crypto'
import { SignJWT } from 'jose'
import { AppError } from '../core/app-error.ts'
import type { SigningKey } from './signing-key.ts'

/** `client_assertion_type` of private_key_jwt (RFC 7523). */
export const CLIENT_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer'
/** Default validity of a client assertion: short, it is used once. */
export const CLIENT_ASSERTION_LIFETIME_SECONDS = 300

export interface ClientAssertionInput {
  clientId: string
  /** The token endpoint URL from discovery: the `aud`. */
  tokenEndpoint: string
  signer: SigningKey
  /** Seconds since the epoch. */
  now: number
  lifetimeSeconds?: number
  jti?: string
}

/**
 * A private_key_jwt client assertion: iss = sub = client_id, aud = the token endpoint, a fresh jti,
 * iat, and a short exp (5 minutes by default), signed PS256 with the client's `kid`.
 *
 * @example const assertion = await createClientAssertion({ clientId, tokenEndpoint, signer, now: clock.epochSeconds() })
 *          // form: client_assertion_type=CLIENT_ASSERTION_TYPE&client_assertion=<assertion>
 */
export async function createClientAssertion(input: ClientAssertionInput): Promise<string> {
  const lifetime = input.lifetimeSeconds ?? CLIENT_ASSERTION_LIFETIME_SECONDS
  if (!input.clientId)
    throw new AppError('INVALID_INPUT', {
      what: 'Making the client assertion failed',
      cause: 'the client id is empty',
      fix: 'register the client first; the client id comes from the registration response',
    })
  try {
    new URL(input.tokenEndpoint)
  } catch {
    throw new AppError('INVALID_INPUT', {
      what: 'Making the client assertion failed',
      cause: `the token endpoint "${input.tokenEndpoint}" is not an absolute URL`,
      fix: 'use the token_endpoint of the discovery document',
    })
  }
  if (!(lifetime > 0 && lifetime <= 3600))
    throw new AppError('INVALID_INPUT', {
      what: 'Making the client assertion failed',
      cause: `a lifetime of ${lifetime} s`,
      fix: 'use a short lifetime, 300 s or less is usual (at most 3600)',
    })
  return new SignJWT({ jti: input.jti ?? randomUUID() })
    .setProtectedHeader({ alg: 'PS256', kid: input.signer.kid, typ: 'JWT' })
    .setIssuer(input.clientId)
    .setSubject(input.clientId)
    .setAudience(input.tokenEndpoint)
    .setIssuedAt(input.now)
    .setExpirationTime(input.now + lifetime)
    .sign(input.signer.key)
}
