import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import { exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK, type JSONWebKeySet } from 'jose'
import { JsonFile } from './store/json-file.ts'

/**
 * The sandbox's own signing key (PS256, RSA 2048): signs ID tokens (through oidc-provider) and PIS
 * responses (`x-jws-signature`). Generated on first start into `auth/signing-key.json` (mode 0600) and
 * reused, so TPPs that cached the JWKS keep verifying after a restart.
 */
export interface SandboxSigningKey {
  kid: string
  /** Private JWK (with `kid`, `alg`, `use`), for oidc-provider's `jwks` configuration. */
  privateJwk: JWK
  privateKey: CryptoKey
  /** The public half, as the discovery document's `jwks_uri` serves it. */
  publicJwks: JSONWebKeySet
}

export async function loadOrCreateSigningKey(authDir: string): Promise<SandboxSigningKey> {
  const file = new JsonFile<{ jwk?: JWK }>(join(authDir, 'signing-key.json'), () => ({}))
  let { jwk } = file.read()
  if (!jwk) {
    const { privateKey } = await generateKeyPair('PS256', { modulusLength: 2048, extractable: true })
    jwk = { ...(await exportJWK(privateKey)), kid: randomUUID(), alg: 'PS256', use: 'sig' }
    file.write({ jwk })
  }
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...pub } = jwk
  return {
    kid: jwk.kid!,
    privateJwk: jwk,
    privateKey: (await importJWK(jwk, 'PS256')) as CryptoKey,
    publicJwks: { keys: [pub] },
  }
}
