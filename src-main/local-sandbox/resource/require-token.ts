import type { Context } from 'koa'
import type { AccessTokenVerifier, TokenInfo } from '../auth/types.ts'
import { ObApiError, UnauthorisedError } from '../http/ob-error.ts'
import { mtlsProblem, peerCertificate } from '../http/peer-certificate.ts'
import { conformance } from '../conformance/probe.ts'

export interface TokenExpectation {
  grant: TokenInfo['grant']
  scope: 'accounts' | 'payments'
}

/**
 * Checks the request's transport certificate (accepted for mutual TLS) and bearer token for a resource-server route: present, known, unexpired, bound to
 * the transport certificate of this connection (RFC 8705), of the right grant and scope. A missing or
 * invalid token is 401 with no body; a valid token of the wrong kind is 403 naming what was expected.
 * Each outcome goes to the request's conformance probe: the Authorization header (`headers.required`), a
 * refused token (`token.expiry`), the token's kind and binding (`token.use`).
 */
export async function requireAccessToken(
  ctx: Context,
  tokens: AccessTokenVerifier,
  expect: TokenExpectation,
): Promise<TokenInfo> {
  // The transport certificate first: none, another CA's, or a self-signed one the profile refuses is a 401 naming it.
  const peer = peerCertificate(ctx)
  const problem = mtlsProblem(peer)
  if (problem) throw new UnauthorisedError(problem)
  const probe = conformance(ctx)
  const header = ctx.get('authorization')
  const match = /^Bearer\s+(\S+)$/i.exec(header)
  if (!match) {
    const reason = header
      ? 'the Authorization header is not "Bearer <access token>"'
      : 'no Authorization header: send "Authorization: Bearer <access token>"'
    probe.fail('headers.required', `401: ${reason}`)
    throw new UnauthorisedError(reason)
  }
  probe.pass('headers.required')
  const info = await tokens.verify(match[1]!)
  if (!info) {
    probe.tokenRefused(match[1]!)
    throw new UnauthorisedError('the access token is unknown, expired or revoked')
  }
  probe.tokenAccepted(match[1]!, info)
  const refuse = (err: UnauthorisedError | ObApiError, detail: string) => {
    probe.fail('token.use', detail)
    return err
  }
  if (info.certificateThumbprint && info.certificateThumbprint !== peer?.thumbprint) {
    const reason =
      'the access token is bound to another transport certificate (cnf.x5t#S256 does not match this connection)'
    throw refuse(new UnauthorisedError(reason), `401: ${reason}`)
  }
  const grantName = { client_credentials: 'client-credentials', authorization_code: 'authorisation-code' }
  if (info.grant !== expect.grant) {
    const message = `this endpoint needs a ${grantName[expect.grant]} token (scope ${expect.scope}); the token sent is a ${grantName[info.grant]} token`
    throw refuse(new ObApiError(403, { code: 'U006', path: 'Authorization', message }), `U006: ${message}`)
  }
  if (!info.scopes.includes(expect.scope)) {
    const message = `the access token's scope "${info.scopes.join(' ')}" does not include "${expect.scope}"`
    throw refuse(new ObApiError(403, { code: 'U006', path: 'Authorization', message }), `U006: ${message}`)
  }
  probe.pass('token.use')
  return info
}
