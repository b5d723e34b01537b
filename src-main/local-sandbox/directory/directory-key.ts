import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose'
import { loadOrCreateJson, type BankDocuments } from '../store/bank-documents.ts'

/** The key the directory signs software statement assertions with. */
export interface DirectoryKey {
  /** RFC 7638 thumbprint of the public key. */
  kid: string
  privateKey: CryptoKey
  publicKey: CryptoKey
  /** The public JWK (`kid`, `alg: PS256`, `use: sig`), as `GET {directory_url}/jwks` serves it. */
  publicJwk: JWK
}

const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'] as const

/** The public half of a JWK (drops every private member). */
export function publicPart(jwk: JWK): JWK {
  const out: JWK = { ...jwk }
  for (const m of PRIVATE_MEMBERS) delete (out as Record<string, unknown>)[m]
  return out
}

export const DIRECTORY_KEY_DOCUMENT = 'directory/signing-key.json'

/**
 * Loads the directory's PS256 signing key (RSA 2048) from the bank document `directory/signing-key.json`
 * (a file of mode 0600 in an embedded data directory, a row in a database store), creating it under the
 * bank-wide lock on first start. It is reused on every later start and by every instance on a shared
 * store, so software statements stay valid.
 */
export async function loadOrCreateDirectoryKey(docs: BankDocuments): Promise<DirectoryKey> {
  const where = () => docs.locate(DIRECTORY_KEY_DOCUMENT).where
  const { jwk } = await loadOrCreateJson<{ jwk?: JWK }>(docs, DIRECTORY_KEY_DOCUMENT, async () => {
    const { privateKey } = await generateKeyPair('PS256', { modulusLength: 2048, extractable: true })
    const exported = await exportJWK(privateKey)
    return { jwk: { ...exported, kid: await calculateJwkThumbprint(exported), alg: 'PS256', use: 'sig' } }
  })
  if (!jwk || jwk.kty !== 'RSA' || !jwk.d || !jwk.kid)
    throw new Error(
      `${where()} does not hold an RSA private JWK with a kid; delete it to generate a new directory key (software statements signed with the old one then stop verifying)`,
    )
  const publicJwk = publicPart(jwk)
  return {
    kid: jwk.kid,
    privateKey: (await importJWK(jwk, 'PS256')) as CryptoKey,
    publicKey: (await importJWK(publicJwk, 'PS256')) as CryptoKey,
    publicJwk,
  }
}
