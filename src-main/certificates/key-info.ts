import { createPublicKey, type KeyObject } from 'node:crypto'
import { calculateJwkThumbprint, type JWK } from 'jose'
import type { KeyInfoDto } from '../contract/certificates.ts'
import { describeKey } from './inspect.ts'

/** The public JWK of a key (private or public): never any private member. */
export function publicJwk(key: KeyObject): Record<string, string> {
  const pub = key.type === 'private' ? createPublicKey(key) : key
  return pub.export({ format: 'jwk' }) as Record<string, string>
}

/**
 * What the renderer may know about a private key: an id, its type and size, its public JWK and
 * thumbprint. The key itself stays in the main process.
 *
 * thumbprint (RFC 7638, SHA-256, by jose). The key itself stays in the main process.
 *
 * @example (await keyInfo(privateKey, 'signing-1')).publicJwk // { kty: 'RSA', n: '...', e: 'AQAB' }
 */
export async function keyInfo(key: KeyObject, keyId: string): Promise<KeyInfoDto> {
  const jwk = publicJwk(key)
  const jwkThumbprint = await calculateJwkThumbprint(jwk as JWK, 'sha256')
  return { keyId, publicKey: describeKey(key), jwkThumbprint, publicJwk: jwk }
}
