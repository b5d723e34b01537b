/** Verifies the sandbox's response x-jws-signature as a TPP would: jose, over the exact body bytes. */
import { base64url, flattenedVerify, importJWK, type JSONWebKeySet } from 'jose'
import type { PisResponse } from './pis-client.ts'
import { OB_CRIT } from './pis-client.ts'

/** Returns the verified JOSE header; throws when the signature is missing or does not verify. */
export async function verifyResponseSignature(res: PisResponse, jwks: JSONWebKeySet): Promise<Record<string, unknown>> {
  const sig = res.headers['x-jws-signature']
  if (!sig) throw new Error(`response ${res.status} has no x-jws-signature`)
  const [protectedB64, payload, signature] = sig.split('.')
  if (payload !== '') throw new Error('response signature is not detached')
  const header = JSON.parse(Buffer.from(protectedB64!, 'base64url').toString()) as Record<string, unknown>
  const jwk = jwks.keys.find((k) => k.kid === header.kid)
  if (!jwk) throw new Error(`kid ${String(header.kid)} not in the sandbox JWKS`)
  await flattenedVerify(
    { protected: protectedB64!, payload: base64url.encode(Buffer.from(res.text, 'utf8')), signature: signature! },
    await importJWK(jwk, 'PS256'),
    { crit: Object.fromEntries(OB_CRIT.map((c) => [c, true])), algorithms: ['PS256'] },
  )
  return header
}
