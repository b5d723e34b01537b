import { createHash, createPublicKey, type KeyObject } from 'node:crypto'
import type { KeyInfoDto } from '../contract/certificates.ts'
import { describeKey } from './inspect.ts'

/** Members of a public JWK that RFC 7638 hashes, per key type, in lexicographic order. */
const THUMBPRINT_MEMBERS: Record<string, string[]> = {
  RSA: ['e', 'kty', 'n'],
  EC: ['crv', 'kty', 'x', 'y'],
  OKP: ['crv', 'kty', 'x'],
}

/** The public JWK of a key (private or public): never any private member. */
export function publicJwk(key: KeyObject): Record<string, string> {
  const pub = key.type === 'private' ? createPublicKey(key) : key
  return pub.export({ format: 'jwk' }) as Record<string, string>
}

/** RFC 7638 JWK thumbprint (SHA-256, base64url) of a public JWK. */
export function jwkThumbprint(jwk: Record<string, unknown>): string {
  const members = THUMBPRINT_MEMBERS[String(jwk.kty)]
  if (!members) throw new Error(`no RFC 7638 thumbprint for key type ${String(jwk.kty)}`)
  const canonical = JSON.stringify(Object.fromEntries(members.map((m) => [m, jwk[m]])))
  return createHash('sha256').update(canonical).digest('base64url')
}

/**
 * What the renderer may know about a private key: an id, its type and size, its public JWK and
 * thumbprint. The key itself stays in the main process.
 *
 * @example keyInfo(privateKey, 'signing-1').publicJwk // { kty: 'RSA', n: '...', e: 'AQAB' }
 */
export function keyInfo(key: KeyObject, keyId: string): KeyInfoDto {
  const jwk = publicJwk(key)
  return { keyId, publicKey: describeKey(key), jwkThumbprint: jwkThumbprint(jwk), publicJwk: jwk }
}
