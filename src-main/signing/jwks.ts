import { createLocalJWKSet, type JSONWebKeySet, type JWK } from 'jose'
import { AppError } from '../core/app-error.ts'

/** The JWK with this `kid` in a JWKS, or undefined. */
export function findJwk(jwks: JSONWebKeySet, kid: string | undefined): JWK | undefined {
  return kid === undefined ? undefined : jwks.keys.find((k) => k.kid === kid)
}

/**
 * A jose key resolver over a JWKS object (fetched by the caller, e.g. from the discovery `jwks_uri` or
 * the directory). Throws INVALID_INPUT when the object is not a JWKS.
 */
export function jwksResolver(jwks: JSONWebKeySet): ReturnType<typeof createLocalJWKSet> {
  if (!jwks || !Array.isArray((jwks as { keys?: unknown }).keys)) {
    throw new AppError('INVALID_INPUT', { what: 'Reading the JWKS failed', cause: 'it is not a JSON Web Key Set (no "keys" array)', fix: 'give the document served at the jwks_uri: {"keys":[...]}' })
  }
  return createLocalJWKSet(jwks)
}

/** The kids of a JWKS, for messages ("kid x is not among a, b"). */
export function jwksKids(jwks: JSONWebKeySet): string {
  const kids = jwks.keys.map((k) => k.kid).filter(Boolean)
  return kids.length ? kids.join(', ') : '(no key has a kid)'
}
