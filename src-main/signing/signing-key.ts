import { createPublicKey, type KeyObject } from 'node:crypto'
import type { JWK } from 'jose'
import { AppError } from '../core/app-error.ts'

/** A private key the console signs with, and the `kid` the bank finds its public half under. */
export interface SigningKey {
  kid: string
  key: KeyObject
}

/**
 * Checks that a key can sign PS256 (RSA, 2048 bits or more) and pairs it with its kid. Throws
 * KEY_UNSUPPORTED naming the key type otherwise.
 *
 * @example const signer = ps256SigningKey(await vault.privateKey(id), identity.key.jwkThumbprint)
 */
export function ps256SigningKey(key: KeyObject, kid: string): SigningKey {
  const type = key.asymmetricKeyType
  if (key.type !== 'private' || (type !== 'rsa' && type !== 'rsa-pss')) {
    throw new AppError('KEY_UNSUPPORTED', {
      what: 'Preparing the signing key failed',
      cause: `PS256 (the algorithm the bank requires) needs an RSA private key; this is ${key.type === 'private' ? `a ${String(type).toUpperCase()} key` : `a ${key.type} key`}`,
      fix: 'use the RSA signing key registered for the software statement (its public key is in the software JWKS)',
    })
  }
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0
  if (bits < 2048) {
    throw new AppError('KEY_UNSUPPORTED', {
      what: 'Preparing the signing key failed',
      cause: `the RSA key has ${bits} bits; PS256 needs at least 2048`,
      fix: 'generate an RSA key of 2048 bits or more',
    })
  }
  if (!kid.trim()) {
    throw new AppError('INVALID_INPUT', {
      what: 'Preparing the signing key failed',
      cause: 'the key id (kid) is empty',
      fix: 'give the kid under which the public key is published in the software JWKS',
    })
  }
  return { kid, key }
}

/** The public JWK of a signing key, with `kid`, `use: sig` and `alg: PS256`, for a JWKS. */
export function publicSigningJwk(signer: SigningKey): JWK {
  const jwk = createPublicKey(signer.key).export({ format: 'jwk' }) as JWK
  return { ...jwk, kid: signer.kid, use: 'sig', alg: 'PS256' }
}
