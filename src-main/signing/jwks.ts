import { createLocalJWKSet, type JSONWebKeySet, type JWK } from 'jose'
import { AppError } from '../core/app-error.ts'

/** The JWK with this `kid` in a JWKS, or undefined. */
export function findJwk(jwks: JSONWebKeySet, kid: string | undefined): JWK | undefined {
  return kid === undefined ? undefined : jwks.keys.find((k) => k.kid === kid)
}

type Resolver = ReturnType<typeof createLocalJWKSet>

/** Resolvers of the JWKS documents seen last, by their content: jose keeps the keys it imported in each. */
const resolvers = new Map<string, Resolver>()
const KEPT_RESOLVERS = 16

/**
 * A jose key resolver over a JWKS object (fetched by the caller, e.g. from the discovery `jwks_uri` or
 * the directory). Throws INVALID_INPUT when the object is not a JWKS.
 *
 * The same keys get the same resolver (the last 16 JWKS documents, by content), so a key is imported once,
 * not at every signature checked (~0.15 ms each here): each flow reads the bank's JWKS afresh, and it
 * rarely changes. A changed document is new content, so a rotated key is never checked against an old one.
 */
export function jwksResolver(jwks: JSONWebKeySet): Resolver {
  if (!jwks || !Array.isArray((jwks as { keys?: unknown }).keys)) {
    throw new AppError('INVALID_INPUT', {
      what: 'Reading the JWKS failed',
      cause: 'it is not a JSON Web Key Set (no "keys" array)',
      fix: 'give the document served at the jwks_uri: {"keys":[...]}',
    })
  }
  const content = JSON.stringify(jwks)
  let resolver = resolvers.get(content)
  if (!resolver) {
    // jose's set keeps a copy of the keys (structuredClone): a caller changing `jwks` later does not change it.
    resolver = createLocalJWKSet(jwks)
    resolvers.set(content, resolver)
    if (resolvers.size > KEPT_RESOLVERS) resolvers.delete(resolvers.keys().next().value!)
  }
  return resolver
}

/** The kids of a JWKS, for messages ("kid x is not among a, b"). */
export function jwksKids(jwks: JSONWebKeySet): string {
  const kids = jwks.keys.map((k) => k.kid).filter(Boolean)
  return kids.length ? kids.join(', ') : '(no key has a kid)'
}
