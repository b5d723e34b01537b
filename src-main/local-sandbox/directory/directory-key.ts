import { join } from 'node:path'
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose'
import { withDirLock } from '../pki/dir-lock.ts'
import { JsonFile } from '../store/json-file.ts'

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

/**
 * Loads the directory's PS256 signing key (RSA 2048) from `<directory>/signing-key.json` (mode 0600),
 * creating it on first start. It is reused on every later start, so software statements stay valid.
 */
export async function loadOrCreateDirectoryKey(directoryDir: string): Promise<DirectoryKey> {
  const file = new JsonFile<{ jwk?: JWK }>(join(directoryDir, 'signing-key.json'), () => ({}))
  const jwk = await withDirLock(join(directoryDir, '.lock'), async () => {
    let { jwk } = file.read()
    if (!jwk) {
      const { privateKey } = await generateKeyPair('PS256', { modulusLength: 2048, extractable: true })
      const exported = await exportJWK(privateKey)
      jwk = { ...exported, kid: await calculateJwkThumbprint(exported), alg: 'PS256', use: 'sig' }
      file.write({ jwk })
    }
    return jwk
  })
  if (jwk.kty !== 'RSA' || !jwk.d || !jwk.kid)
    throw new Error(
      `${file.path} does not hold an RSA private JWK with a kid; delete it to generate a new directory key (software statements signed with the old one then stop verifying)`,
    )
  const publicJwk = publicPart(jwk)
  return {
    kid: jwk.kid,
    privateKey: (await importJWK(jwk, 'PS256')) as CryptoKey,
    publicKey: (await importJWK(publicJwk, 'PS256')) as CryptoKey,
    publicJwk,
  }
}
