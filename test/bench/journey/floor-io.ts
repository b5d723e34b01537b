/**
 * The P1 floor's client stack: undici and jose used directly, nothing else. One undici Agent per origin
 * with `connections: 1` (keep-alive, so each origin costs one TLS handshake per journey), the transport
 * certificate on `{base_url}` only; jose signs (PS256) and verifies the ID tokens and the PIS response
 * signatures, as a conforming client must.
 */
import { Agent, request } from 'undici'
import {
  CompactSign,
  base64url,
  compactVerify,
  createLocalJWKSet,
  flattenedVerify,
  importPKCS8,
  type CryptoKey,
} from 'jose'
import type { StarterKit } from '../lib/sandbox-process.ts'
import type { HttpAnswer, HttpCall, JourneyIo } from './session.ts'

function lowerHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(h))
    if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v
  return out
}

/** The floor stack for one journey: new agents (fresh connections) and the kit's signing key. */
export async function floorIo(caBundlePem: string, kit: StarterKit): Promise<JourneyIo> {
  const mtls = new Agent({
    connect: { ca: caBundlePem, cert: kit.transportCertPem, key: kit.transportKeyPem },
    connections: 1,
  })
  const tls = new Agent({ connect: { ca: caBundlePem }, connections: 1 })
  const key: CryptoKey = await importPKCS8(kit.signingKeyPem, 'PS256')
  const encoder = new TextEncoder()
  return {
    async http(c: HttpCall): Promise<HttpAnswer> {
      const res = await request(c.url, {
        method: c.method,
        headers: c.headers,
        body: c.body,
        dispatcher: c.mtls ? mtls : tls,
      })
      return { status: res.statusCode, headers: lowerHeaders(res.headers), text: await res.body.text() }
    },
    sign(header, payload) {
      const crit = Array.isArray(header.crit)
        ? Object.fromEntries((header.crit as string[]).map((c) => [c, true]))
        : undefined
      return new CompactSign(encoder.encode(payload))
        .setProtectedHeader(header as { alg: string })
        .sign(key, crit ? { crit } : undefined)
    },
    async verify(jws, jwks, opts) {
      const keys = createLocalJWKSet(jwks)
      const crit = opts.crit ? { crit: Object.fromEntries(opts.crit.map((c) => [c, true])) } : {}
      if (opts.detachedPayload !== undefined) {
        const [protectedHeader, , signature] = jws.split('.')
        await flattenedVerify(
          { protected: protectedHeader!, payload: base64url.encode(opts.detachedPayload), signature: signature! },
          keys,
          { ...crit, algorithms: ['PS256'] },
        )
        return {}
      }
      const { payload } = await compactVerify(jws, keys, { ...crit, algorithms: ['PS256'] })
      return JSON.parse(new TextDecoder().decode(payload)) as Record<string, unknown>
    },
    async close() {
      await Promise.all([mtls.close(), tls.close()])
    },
  }
}
