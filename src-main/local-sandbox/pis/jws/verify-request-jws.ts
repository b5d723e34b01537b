import { base64url, flattenedVerify, type JSONWebKeySet, type JWK } from 'jose'
import { ObApiError } from '../../http/ob-error.ts'
import { checkJwsHeader } from './check-jws-header.ts'
import { OB_CRIT_OPTION } from './ob-jws-header.ts'
import { JWS_HEADER_NAME, parseDetachedJws } from './parse-detached-jws.ts'
import { ps256VerificationKey } from '../../crypto/verification-keys.ts'

export interface RequestJwsInput {
  /** The `x-jws-signature` header as received (undefined when absent). */
  signature: string | undefined
  /** The exact request body bytes. */
  body: Uint8Array
  /** `{org_id}/{software_id}` of the client behind the access token. */
  expectedIss: string
  /** The public JWKS of the client's software statement; undefined when the directory no longer knows it. */
  jwks: JSONWebKeySet | undefined
  /** Where that JWKS is published, named in messages. */
  jwksLabel: string
  /** Sandbox time, seconds. */
  nowSeconds: number
}

function invalidSignature(message: string): ObApiError {
  return new ObApiError(400, { code: 'U015', path: JWS_HEADER_NAME, message })
}

/**
 * Verifies a request's `x-jws-signature` as Open Banking v4.0 says: detached, PS256, the three OB
 * critical claims with the right values, `kid` on the TPP's software statement JWKS, signature over
 * base64url of the exact body bytes. Throws a 400 `ObApiError` with `U019` (missing), `U018`
 * (malformed), `U017` (missing claim), `U016` (claim with a wrong value) or `U015` (unknown key, bad
 * signature, tampered body); returns the verified header otherwise.
 */
export async function verifyRequestJws(input: RequestJwsInput): Promise<Record<string, unknown>> {
  const parsed = parseDetachedJws(input.signature)
  checkJwsHeader(parsed.header, { iss: input.expectedIss, nowSeconds: input.nowSeconds })
  const kid = parsed.header.kid as string
  if (!input.jwks) {
    throw invalidSignature(
      `the software statement of "${input.expectedIss}" is not in the directory any more, so no key can verify the signature; onboard the TPP again`,
    )
  }
  const jwk: JWK | undefined = input.jwks.keys.find((k) => k.kid === kid)
  if (!jwk) {
    const known = input.jwks.keys.map((k) => k.kid).filter(Boolean)
    throw invalidSignature(
      `kid "${kid}" is not on the software statement's JWKS (${input.jwksLabel}); keys there: ${known.length ? known.join(', ') : 'none'}. Sign with the software's signing key and put its kid in the header`,
    )
  }
  let key: Awaited<ReturnType<typeof ps256VerificationKey>>
  try {
    key = await ps256VerificationKey(jwk)
  } catch (err) {
    throw invalidSignature(
      `the key "${kid}" on the software statement's JWKS cannot verify PS256 signatures (${(err as Error).message}); it must be an RSA signing key`,
    )
  }
  try {
    await flattenedVerify(
      { protected: parsed.protectedB64, payload: base64url.encode(input.body), signature: parsed.signatureB64 },
      key,
      { ...OB_CRIT_OPTION, algorithms: ['PS256'] },
    )
  } catch (err) {
    const code = (err as { code?: string }).code ?? 'error'
    throw invalidSignature(
      `the signature does not verify with key "${kid}" over the exact request body (${code}): sign base64url(header) + "." + base64url(body bytes as sent), and send the body unchanged (no re-serialising, no added whitespace)`,
    )
  }
  return parsed.header
}
