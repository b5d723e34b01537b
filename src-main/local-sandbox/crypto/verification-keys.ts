import { importJWK, type JWK } from 'jose'

type ImportedKey = Awaited<ReturnType<typeof importJWK>>

/** Keys kept at most; past that the oldest is imported again when next needed. */
export const MAX_VERIFICATION_KEYS = 256

const keys = new Map<string, Promise<ImportedKey>>()

/**
 * The PS256 key of a JWK from a software's JWKS, imported once per distinct JWK (its JSON, so a changed
 * key is a new entry) and shared by the verifications that follow: importing costs more than verifying.
 * A JWK that cannot be imported is not remembered, and the import's error reaches the caller as before.
 */
export function ps256VerificationKey(jwk: JWK): Promise<ImportedKey> {
  const id = JSON.stringify(jwk)
  let key = keys.get(id)
  if (!key) {
    key = importJWK({ ...jwk, alg: 'PS256' }, 'PS256')
    key.catch(() => keys.delete(id))
    if (keys.size >= MAX_VERIFICATION_KEYS) keys.delete(keys.keys().next().value!)
    keys.set(id, key)
  }
  return key
}
