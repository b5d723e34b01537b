import { constants, createPublicKey, KeyObject, verify, type JsonWebKey } from 'node:crypto'
import type { CryptoKey, JWK } from 'jose'

/**
 * PS256 (RSASSA-PSS with SHA-256 and a 32-byte salt, RFC 7518 3.5) verification with node:crypto,
 * synchronously: the sandbox verifies a few signatures per journey (request objects, registration
 * JWTs, software statements, PIS request signatures), and WebCrypto's promise, thread-pool job and
 * argument conversions cost several times the RSA operation itself.
 */

/** Why a JWK cannot verify PS256 signatures. */
export class Ps256KeyError extends Error {}

/** Public keys kept at most; past that the oldest is made again when next needed. */
export const MAX_PS256_KEYS = 256

const fromJwk = new Map<string, KeyObject>()
const fromCryptoKey = new WeakMap<CryptoKey, KeyObject>()

function checkRsa(key: KeyObject): KeyObject {
  if (key.asymmetricKeyType !== 'rsa') throw new Ps256KeyError(`it is a ${key.asymmetricKeyType ?? 'symmetric'} key, not an RSA key`)
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0
  if (bits < 2048) throw new Ps256KeyError(`PS256 requires an RSA modulus of 2048 bits or more; this key has ${bits}`)
  return key
}

/**
 * The public key of a JWK (from a software's JWKS), made once per distinct JWK and shared by the
 * verifications that follow. Throws a Ps256KeyError naming the problem for a JWK that is not a public
 * RSA key of 2048 bits or more; such a JWK is not remembered.
 */
export function ps256PublicKey(jwk: JWK): KeyObject {
  const id = JSON.stringify(jwk)
  let key = fromJwk.get(id)
  if (!key) {
    if (jwk.kty !== 'RSA') throw new Ps256KeyError(`its kty is ${JSON.stringify(jwk.kty ?? null)}, not "RSA"`)
    if (jwk.d !== undefined) throw new Ps256KeyError('it holds private key material ("d"); a JWKS publishes public keys only')
    try {
      key = checkRsa(createPublicKey({ key: { kty: 'RSA', n: jwk.n, e: jwk.e } as JsonWebKey, format: 'jwk' }))
    } catch (err) {
      if (err instanceof Ps256KeyError) throw err
      throw new Ps256KeyError(`it is not a valid RSA public key (${(err as Error).message})`)
    }
    if (fromJwk.size >= MAX_PS256_KEYS) fromJwk.delete(fromJwk.keys().next().value!)
    fromJwk.set(id, key)
  }
  return key
}

/** A KeyObject for a (WebCrypto) RSA public key, made once per key. */
export function ps256KeyObject(key: CryptoKey | KeyObject): KeyObject {
  if (key instanceof KeyObject) return checkRsa(key)
  let keyObject = fromCryptoKey.get(key)
  if (!keyObject) {
    keyObject = checkRsa(KeyObject.from(key as Parameters<typeof KeyObject.from>[0]))
    fromCryptoKey.set(key, keyObject)
  }
  return keyObject
}

const B64URL = /^[A-Za-z0-9_-]+$/

/** Whether `signatureB64` (base64url) is a PS256 signature of the ASCII `signingInput` by `key`. */
export function verifyPs256(signingInput: string, signatureB64: string, key: KeyObject): boolean {
  if (!B64URL.test(signatureB64)) return false
  try {
    return verify('sha256', Buffer.from(signingInput, 'utf8'), { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 }, Buffer.from(signatureB64, 'base64url'))
  } catch {
    return false
  }
}

/**
 * Checks a compact JWS as jose's compactVerify does for PS256 with no critical extensions: three
 * base64url parts, a JSON object header with `alg: "PS256"` and no `crit`, and the signature over
 * `header.payload`. Returns undefined when it verifies, else what is wrong.
 */
export function compactPs256Problem(jws: string, key: KeyObject): 'malformed' | 'unsupported header' | 'signature' | undefined {
  const parts = jws.split('.')
  if (parts.length !== 3 || !B64URL.test(parts[0]!) || !B64URL.test(parts[1]!)) return 'malformed'
  let header: unknown
  try {
    header = JSON.parse(Buffer.from(parts[0]!, 'base64url').toString('utf8'))
  } catch {
    return 'malformed'
  }
  if (typeof header !== 'object' || header === null || Array.isArray(header)) return 'malformed'
  const h = header as Record<string, unknown>
  if (h.alg !== 'PS256' || h.crit !== undefined) return 'unsupported header'
  return verifyPs256(`${parts[0]}.${parts[1]}`, parts[2]!, key) ? undefined : 'signature'
}
