import type { DecodedJwtDto } from '../contract/jwt.ts'
import { AppError } from '../core/app-error.ts'
import { decodeJwtParts } from '../core/jwt-parts.ts'

/** Claims that hold NumericDates (seconds since the epoch), shown as ISO dates. */
const TIME_CLAIMS = ['iat', 'nbf', 'exp', 'auth_time', 'http://openbanking.org.uk/refresh_token_expires_at', 'client_id_issued_at', 'client_secret_expires_at']
const OB_IAT = 'http://openbanking.org.uk/iat'

function times(header: Record<string, unknown>, claims: Record<string, unknown> | undefined): Record<string, string> {
  const out: Record<string, string> = {}
  for (const name of TIME_CLAIMS) {
    const v = claims?.[name]
    if (typeof v === 'number' && Number.isFinite(v) && v > 0) out[name] = new Date(v * 1000).toISOString()
  }
  const obIat = header[OB_IAT]
  if (typeof obIat === 'number' && Number.isFinite(obIat)) out[OB_IAT] = new Date(obIat * 1000).toISOString()
  return out
}

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
    times: times(parts.header, parts.claims),
    signature: parts.detached ? 'detached' : parts.signatureSegment === '' ? 'none' : 'present',
    compact: token.trim(),
  }
}
