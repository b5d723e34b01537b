import type { Context } from 'koa'
import type { AccessTokenVerifier, TokenInfo } from '../auth/types.ts'
import { ObApiError, UnauthorisedError } from '../http/ob-error.ts'
import { mtlsProblem, peerCertificate } from '../http/peer-certificate.ts'

export interface TokenExpectation {
  grant: TokenInfo['grant']
  scope: 'accounts' | 'payments'
}

/**
 * Checks the request's transport certificate (accepted for mutual TLS) and bearer token for a resource-server route: present, known, unexpired, bound to
 * the transport certificate of this connection (RFC 8705), of the right grant and scope. A missing or
 * invalid token is 401 with no body; a valid token of the wrong kind is 403 naming what was expected.
 */
export async function requireAccessToken(ctx: Context, tokens: AccessTokenVerifier, expect: TokenExpectation): Promise<TokenInfo> {
  // The transport certificate first: none, another CA's, or a self-signed one the profile refuses is a 401 naming it.
  const peer = peerCertificate(ctx)
  const problem = mtlsProblem(peer)
  if (problem) throw new UnauthorisedError(problem)
  const header = ctx.get('authorization')
  const match = /^Bearer\s+(\S+)$/i.exec(header)
  if (!match) throw new UnauthorisedError(header ? 'the Authorization header is not "Bearer <access token>"' : 'no Authorization header: send "Authorization: Bearer <access token>"')
  const info = await tokens.verify(match[1]!)
  if (!info) throw new UnauthorisedError('the access token is unknown, expired or revoked')
  if (info.certificateThumbprint && info.certificateThumbprint !== peer?.thumbprint) {
    throw new UnauthorisedError('the access token is bound to another transport certificate (cnf.x5t#S256 does not match this connection)')
  }
  const grantName = { client_credentials: 'client-credentials', authorization_code: 'authorisation-code' }
  if (info.grant !== expect.grant) {
    throw new ObApiError(403, { code: 'U006', path: 'Authorization', message: `this endpoint needs a ${grantName[expect.grant]} token (scope ${expect.scope}); the token sent is a ${grantName[info.grant]} token` })
  }
  if (!info.scopes.includes(expect.scope)) {
    throw new ObApiError(403, { code: 'U006', path: 'Authorization', message: `the access token's scope "${info.scopes.join(' ')}" does not include "${expect.scope}"` })
  }
  return info
}
