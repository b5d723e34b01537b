import { randomBytes, randomUUID } from 'node:crypto'
import { exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK, type JSONWebKeySet } from 'jose'
import { loadOrCreateJson, type BankDocuments } from './store/bank-documents.ts'

/**
 * The sandbox's own signing key (PS256, RSA 2048): signs ID tokens (through oidc-provider) and PIS
 * responses (`x-jws-signature`). Generated on first start as the bank document `auth/signing-key.json`
 * (a file of mode 0600 in an embedded data directory, a row in a database store) and reused, so TPPs
 * that cached the JWKS keep verifying after a restart, and every instance on a shared store signs alike.
 */
export interface SandboxSigningKey {
  kid: string
  /** Private JWK (with `kid`, `alg`, `use`), for oidc-provider's `jwks` configuration. */
  privateJwk: JWK
  privateKey: CryptoKey
  /** The public half, as the discovery document's `jwks_uri` serves it. */
  publicJwks: JSONWebKeySet
}

export const SIGNING_KEY_DOCUMENT = 'auth/signing-key.json'
export const COOKIE_KEYS_DOCUMENT = 'auth/cookie-keys.json'

/** Loads the authorisation server's signing key from the bank documents, creating it on first start. */
export async function loadOrCreateSigningKey(docs: BankDocuments): Promise<SandboxSigningKey> {
  const { jwk } = await loadOrCreateJson<{ jwk?: JWK }>(docs, SIGNING_KEY_DOCUMENT, async () => {
    const { privateKey } = await generateKeyPair('PS256', { modulusLength: 2048, extractable: true })
    return { jwk: { ...(await exportJWK(privateKey)), kid: randomUUID(), alg: 'PS256', use: 'sig' } }
  })
  if (!jwk || jwk.kty !== 'RSA' || !jwk.d || !jwk.kid)
    throw new Error(
      `${docs.locate(SIGNING_KEY_DOCUMENT).where} does not hold an RSA private JWK with a kid; delete it to generate a new signing key (ID tokens and response signatures made with the old one then stop verifying)`,
    )
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...pub } = jwk
  return {
    kid: jwk.kid,
    privateJwk: jwk,
    privateKey: (await importJWK(jwk, 'PS256')) as CryptoKey,
    publicJwks: { keys: [pub] },
  }
}

/**
 * The keys oidc-provider signs its cookies with (the PSU's interaction and session), kept as the bank
 * document `auth/cookie-keys.json`: every instance on a shared store accepts the cookies of the others
 * (a PSU's authorisation may hop between instances), and an interaction survives a restart.
 */
export async function loadOrCreateCookieKeys(docs: BankDocuments): Promise<string[]> {
  const { keys } = await loadOrCreateJson<{ keys?: unknown }>(docs, COOKIE_KEYS_DOCUMENT, async () => ({
    keys: [randomBytes(32).toString('base64url')],
  }))
  if (!Array.isArray(keys) || keys.length === 0 || !keys.every((k) => typeof k === 'string' && k.length >= 32))
    throw new Error(
      `${docs.locate(COOKIE_KEYS_DOCUMENT).where} does not hold {"keys": [...]} with keys of at least 32 characters; delete it to generate new cookie keys (PSU authorisations in progress then start again)`,
    )
  return keys as string[]
}
