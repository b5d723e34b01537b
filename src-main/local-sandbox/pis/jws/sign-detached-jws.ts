import { FlattenedSign, type CryptoKey } from 'jose'
import { OB_CRIT, OB_CRIT_OPTION, OB_IAT, OB_ISS, OB_TAN, OB_TRUST_ANCHOR } from './ob-jws-header.ts'

export interface DetachedJwsSigner {
  kid: string
  privateKey: CryptoKey
}

/**
 * Signs `body` (the exact bytes sent) as an Open Banking v4.0 detached JWS and returns the
 * `x-jws-signature` value `b64url(header)..b64url(signature)`: PS256, no `b64` header, the payload
 * base64url-encoded in the signing input and then left out.
 *
 * @example
 *   const sig = await signDetachedJws(Buffer.from(text), { kid, privateKey }, { iss: '0015800000LOCALSBX', iat: clock.nowSeconds() })
 */
export async function signDetachedJws(
  body: Uint8Array,
  signer: DetachedJwsSigner,
  claims: { iss: string; iat: number },
): Promise<string> {
  const jws = await new FlattenedSign(body)
    .setProtectedHeader({
      alg: 'PS256',
      kid: signer.kid,
      typ: 'JOSE',
      cty: 'application/json',
      [OB_IAT]: claims.iat,
      [OB_ISS]: claims.iss,
      [OB_TAN]: OB_TRUST_ANCHOR,
      crit: [...OB_CRIT],
    })
    .sign(signer.privateKey, OB_CRIT_OPTION)
  return `${jws.protected}..${jws.signature}`
}
