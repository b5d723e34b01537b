import { constants, KeyObject, sign } from 'node:crypto'
import type { CryptoKey } from 'jose'
import { OB_CRIT, OB_IAT, OB_ISS, OB_TAN, OB_TRUST_ANCHOR } from './ob-jws-header.ts'

export interface DetachedJwsSigner {
  kid: string
  /** An RSA private key (2048 bits or more). */
  privateKey: CryptoKey | KeyObject
}

/** The KeyObject of each CryptoKey signed with, made once. */
const keyObjects = new WeakMap<CryptoKey, KeyObject>()

function keyObjectOf(key: CryptoKey | KeyObject): KeyObject {
  if (key instanceof KeyObject) return key
  let keyObject = keyObjects.get(key)
  if (!keyObject) {
    keyObject = KeyObject.from(key as Parameters<typeof KeyObject.from>[0])
    keyObjects.set(key, keyObject)
  }
  return keyObject
}

/**
 * Signs `body` (the exact bytes sent) as an Open Banking v4.0 detached JWS and returns the
 * `x-jws-signature` value `b64url(header)..b64url(signature)`: PS256 (RSASSA-PSS, SHA-256, 32-byte
 * salt), no `b64` header, the payload base64url-encoded in the signing input and then left out.
 *
 * @example
 *   const sig = await signDetachedJws(Buffer.from(text), { kid, privateKey }, { iss: '0015800000LOCALSBX', iat: clock.nowSeconds() })
 */
export async function signDetachedJws(body: Uint8Array, signer: DetachedJwsSigner, claims: { iss: string; iat: number }): Promise<string> {
  const header = {
    alg: 'PS256',
    kid: signer.kid,
    typ: 'JOSE',
    cty: 'application/json',
    [OB_IAT]: claims.iat,
    [OB_ISS]: claims.iss,
    [OB_TAN]: OB_TRUST_ANCHOR,
    crit: [...OB_CRIT],
  }
  const protectedB64 = Buffer.from(JSON.stringify(header), 'utf8').toString('base64url')
  const signingInput = Buffer.from(`${protectedB64}.${Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('base64url')}`, 'ascii')
  const signature = sign('sha256', signingInput, { key: keyObjectOf(signer.privateKey), padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 })
  return `${protectedB64}..${signature.toString('base64url')}`
}
