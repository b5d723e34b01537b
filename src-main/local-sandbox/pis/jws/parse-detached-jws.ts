import { ObApiError } from '../../http/ob-error.ts'

export const JWS_HEADER_NAME = 'x-jws-signature'

export interface ParsedDetachedJws {
  /** The first part, as sent (base64url of the JOSE header). */
  protectedB64: string
  /** The third part, as sent. */
  signatureB64: string
  /** The decoded JOSE header. */
  header: Record<string, unknown>
}

const B64URL = /^[A-Za-z0-9_-]+$/

function malformed(message: string): ObApiError {
  return new ObApiError(400, { code: 'U018', path: JWS_HEADER_NAME, message })
}

/**
 * Splits and decodes an `x-jws-signature` value. Throws `U019` when it is absent and `U018` when it is
 * not a detached JWS (`b64url(header)..b64url(signature)`) with a JSON object as header.
 */
export function parseDetachedJws(value: string | undefined): ParsedDetachedJws {
  if (value === undefined || value.trim() === '') {
    throw new ObApiError(400, {
      code: 'U019',
      path: JWS_HEADER_NAME,
      message:
        'the x-jws-signature header is missing: sign the exact request body as a detached JWS (PS256, Open Banking v4.0 claims) and send it in x-jws-signature',
    })
  }
  const parts = value.trim().split('.')
  if (parts.length !== 3) {
    throw malformed(
      `x-jws-signature has ${parts.length} dot-separated part(s); a detached JWS has exactly 3: base64url(header)..base64url(signature)`,
    )
  }
  const [protectedB64, payloadB64, signatureB64] = parts as [string, string, string]
  if (payloadB64 !== '') {
    throw malformed(
      'the payload part of x-jws-signature (between the two dots) must be empty: the JWS is detached, the body travels as the HTTP body',
    )
  }
  if (!B64URL.test(protectedB64))
    throw malformed(
      'the header part of x-jws-signature is empty or not base64url (characters A-Z a-z 0-9 - _ only, no padding)',
    )
  if (!B64URL.test(signatureB64))
    throw malformed(
      'the signature part of x-jws-signature is empty or not base64url (characters A-Z a-z 0-9 - _ only, no padding)',
    )
  let header: unknown
  try {
    header = JSON.parse(Buffer.from(protectedB64, 'base64url').toString('utf8'))
  } catch {
    throw malformed(
      'the header part of x-jws-signature does not decode to JSON: it must be base64url of the JOSE header object',
    )
  }
  if (typeof header !== 'object' || header === null || Array.isArray(header)) {
    throw malformed('the header part of x-jws-signature decodes to JSON that is not an object')
  }
  return { protectedB64, signatureB64, header: header as Record<string, unknown> }
}
