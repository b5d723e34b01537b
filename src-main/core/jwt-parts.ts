// Splitting and decoding compact JWS/JWT strings without verifying them. Shared by the redactor, the
// exchange log (which finds JWTs in traffic) and the signing layer's debugger.

/** base64url alphabet segments: header.payload.signature, the signature possibly empty (alg none). */
const COMPACT = /^[A-Za-z0-9_-]{2,}\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*$/

export interface JwtParts {
  header: Record<string, unknown>
  /** The parsed claims when the payload is a JSON object; undefined for a detached or non-JSON payload. */
  claims?: Record<string, unknown>
  /** The payload segment as sent (empty for a detached JWS). */
  payloadSegment: string
  signatureSegment: string
  /** `header..signature`: a detached JWS such as `x-jws-signature`. */
  detached: boolean
}

function decodeJsonSegment(segment: string): unknown {
  return JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'))
}

/** True when `value` has the shape of a compact JWS whose header decodes to a JSON object with `alg`. */
export function looksLikeJwt(value: string): boolean {
  if (!COMPACT.test(value)) return false
  try {
    const header = decodeJsonSegment(value.slice(0, value.indexOf('.')))
    return typeof header === 'object' && header !== null && typeof (header as { alg?: unknown }).alg === 'string'
  } catch {
    return false
  }
}

/**
 * Decodes a compact JWS/JWT without checking its signature. Throws an Error naming the broken part
 * (callers turn it into JWT_MALFORMED with their own context).
 *
 * @example decodeJwtParts('eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.').claims // { sub: 'x' }
 */
export function decodeJwtParts(token: string): JwtParts {
  const trimmed = token.trim()
  const segments = trimmed.split('.')
  if (segments.length === 5)
    throw new Error(
      'it has five parts: it is an encrypted JWE, which the console cannot read without the decryption key',
    )
  if (segments.length !== 3)
    throw new Error(`a compact JWT has three parts separated by dots, this has ${segments.length}`)
  const [h, p, s] = segments as [string, string, string]
  let header: unknown
  try {
    header = decodeJsonSegment(h)
  } catch {
    throw new Error('its header is not base64url-encoded JSON')
  }
  if (typeof header !== 'object' || header === null || Array.isArray(header))
    throw new Error('its header is not a JSON object')
  let claims: Record<string, unknown> | undefined
  if (p !== '') {
    try {
      const parsed = decodeJsonSegment(p)
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
        claims = parsed as Record<string, unknown>
    } catch {
      claims = undefined
    }
  }
  return {
    header: header as Record<string, unknown>,
    ...(claims ? { claims } : {}),
    payloadSegment: p,
    signatureSegment: s,
    detached: p === '' && s !== '',
  }
}

/** Claims that hold NumericDates (seconds since the epoch). */
const TIME_CLAIMS = [
  'iat',
  'nbf',
  'exp',
  'auth_time',
  'http://openbanking.org.uk/refresh_token_expires_at',
  'client_id_issued_at',
  'client_secret_expires_at',
]
const OB_IAT = 'http://openbanking.org.uk/iat'

/**
 * The NumericDate claims of a JWT (and the `http://openbanking.org.uk/iat` header of a detached JWS)
 * as ISO-8601 strings, for display.
 */
export function jwtTimes(
  header: Record<string, unknown>,
  claims: Record<string, unknown> | undefined,
): Record<string, string> {
  const out: Record<string, string> = {}
  for (const name of TIME_CLAIMS) {
    const v = claims?.[name]
    if (typeof v === 'number' && Number.isFinite(v) && v > 0 && v < 1e11) out[name] = new Date(v * 1000).toISOString()
  }
  const obIat = header[OB_IAT]
  if (typeof obIat === 'number' && Number.isFinite(obIat) && obIat > 0 && obIat < 1e11)
    out[OB_IAT] = new Date(obIat * 1000).toISOString()
  return out
}
