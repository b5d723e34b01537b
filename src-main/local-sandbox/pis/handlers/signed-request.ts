import type { Context } from 'koa'
import type { TokenInfo } from '../../auth/types.ts'
import { ObApiError, UnauthorisedError } from '../../http/ob-error.ts'
import { conformance, refusalDetail } from '../../conformance/probe.ts'
import { readBodyBytes } from '../http/request-checks.ts'
import { verifyRequestJws } from '../jws/verify-request-jws.ts'
import type { PisDeps } from '../pis-deps.ts'

/**
 * Reads the exact request body and verifies its `x-jws-signature` against the signing keys of the
 * software statement behind the token's client (`iss` must be `{org_id}/{software_id}` of that
 * client). Returns the body bytes; throws the v4.0 signature errors (U015-U019).
 */
export async function readSignedBody(ctx: Context, deps: PisDeps, token: TokenInfo): Promise<Buffer> {
  const client = await deps.auth.clients.get(token.clientId)
  if (!client) throw new UnauthorisedError(`the access token's client ${token.clientId} is no longer registered`)
  const body = await readBodyBytes(ctx)
  const software = await deps.sandbox.directory.software(client.softwareId)
  const probe = conformance(ctx)
  try {
    await verifyRequestJws({
      signature: ctx.get('x-jws-signature') || undefined,
      body,
      expectedIss: `${client.orgId}/${client.softwareId}`,
      jwks: software?.jwks,
      jwksLabel: software?.jwksEndpoint ?? `software ${client.softwareId}`,
      // Wall time, as for every TPP-made JWT: the TPP signs with its own clock, not the sandbox's.
      nowSeconds: Math.floor(Date.now() / 1000),
    })
  } catch (err) {
    // U016/U017: the header's claims; U015/U018/U019: the signature itself (missing, malformed, not verifying).
    if (err instanceof ObApiError) {
      const headerOnly = err.details.every((d) => d.code === 'U016' || d.code === 'U017')
      probe.fail(headerOnly ? 'jws.header' : 'jws.signature', refusalDetail(err)!)
    }
    throw err
  }
  probe.pass('jws.header')
  probe.pass('jws.signature')
  return body
}
