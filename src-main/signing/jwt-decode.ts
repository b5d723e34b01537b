import type { DecodedJwtDto } from '../contract/jwt.ts'
import { AppError } from '../core/app-error.ts'
import { decodeJwtParts, jwtTimes } from '../core/jwt-parts.ts'

/**
 * Decodes any JWT or JWS for the debugger: header, claims, times as dates, and whether it is signed,
 * unsigned (`alg: none`) or detached (`x-jws-signature`). Verifies nothing. Throws JWT_MALFORMED naming
 * the broken part.
 *
 * @example decodeJwt(idToken, 'fragment id_token').times.exp // '2026-01-01T01:00:00.000Z'
 */
export function decodeJwt(token: string, location = 'pasted'): DecodedJwtDto {
  let parts
  try {
    parts = decodeJwtParts(token)
  } catch (err) {
    throw new AppError('JWT_MALFORMED', {
      what: `Decoding the JWT (${location}) failed`,
      cause: (err as Error).message,
      fix: 'paste the whole token: three base64url parts separated by dots, without quotes or the "Bearer " prefix',
      source: err,
    })
  }
  return {
    location,
    header: parts.header,
    ...(parts.claims ? { claims: parts.claims } : {}),
    times: jwtTimes(parts.header, parts.claims),
    signature: parts.detached ? 'detached' : parts.signatureSegment === '' ? 'none' : 'present',
    compact: token.trim(),
  }
}
