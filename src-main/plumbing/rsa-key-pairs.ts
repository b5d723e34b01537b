import { webcrypto } from 'node:crypto'

/**
 * New RSA 2048 key pairs (e = 65537, SHA-256, extractable) for the local sandbox's directory and PKI: the
 * TPP signing keys it hands out (`RSA-PSS`, PS256) and the keys its certificates are made for
 * (`RSASSA-PKCS1-v1_5`). Making one takes 50-500 ms of a libuv thread (the primes are random), so a command
 * that knows it will onboard a TPP can have the pairs made ahead, while its modules load: `rsaKeyPair` then
 * gives each pair made ahead once, and makes a new one when none is left. No pair is written anywhere or
 * given twice.
 */
export type RsaKeyAlgorithm = 'RSA-PSS' | 'RSASSA-PKCS1-v1_5'

type KeyPair = webcrypto.CryptoKeyPair

const madeAhead = new Map<RsaKeyAlgorithm, Promise<KeyPair>[]>()

function makeRsaKeyPair(name: RsaKeyAlgorithm): Promise<KeyPair> {
  return webcrypto.subtle.generateKey(
    { name, hash: 'SHA-256', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]) },
    true,
    ['sign', 'verify'],
  ) as Promise<KeyPair>
}

/** Starts making `count` pairs of `name` now, for later `rsaKeyPair(name)` calls to take. */
export function makeRsaKeyPairsAhead(name: RsaKeyAlgorithm, count = 1): void {
  const list = madeAhead.get(name) ?? []
  for (let i = 0; i < count; i++) {
    const pair = makeRsaKeyPair(name)
    // A pair that failed is never given: its taker makes a new one (and an untaken failure is no rejection).
    pair.catch(() => undefined)
    list.push(pair)
  }
  madeAhead.set(name, list)
}

/** How many pairs of `name` made ahead are still to be taken. */
export function rsaKeyPairsAhead(name: RsaKeyAlgorithm): number {
  return madeAhead.get(name)?.length ?? 0
}

/** A new key pair of `name`: the oldest made ahead, if one is left (each is given once), else one made now. */
export async function rsaKeyPair(name: RsaKeyAlgorithm): Promise<KeyPair> {
  const ahead = madeAhead.get(name)?.shift()
  if (ahead) {
    try {
      return await ahead
    } catch {
      // made anew below
    }
  }
  return makeRsaKeyPair(name)
}
