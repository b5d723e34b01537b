import type Provider from 'oidc-provider'
import type { SandboxClock } from '../clock.ts'
import type { SandboxTokenExtra } from './provider/provider-config.ts'
import type { AccessTokenVerifier, TokenInfo } from './types.ts'

interface StoredToken {
  clientId: string
  scope?: string
  exp: number
  grantId?: string
  accountId?: string
  extra?: Partial<SandboxTokenExtra>
  'x5t#S256'?: string
  destroy(): Promise<void>
}

/**
 * Reads access tokens for the resource server and the registration management endpoints. A token is
 * valid while oidc-provider still holds it (not expired in wall time, not revoked, its client and grant
 * still there) and the sandbox clock has not passed its sandbox expiry either.
 */
export class TokenVerifier implements AccessTokenVerifier {
  constructor(
    private readonly provider: Provider,
    private readonly clock: SandboxClock,
  ) {}

  async verify(accessToken: string): Promise<TokenInfo | undefined> {
    if (typeof accessToken !== 'string' || accessToken.length === 0 || accessToken.length > 512) return undefined
    const found = await this.#find(accessToken)
    if (!found) return undefined
    const { token, grant } = found
    const sandboxExp = token.extra?.sandbox_exp ?? token.exp
    if (sandboxExp <= this.clock.nowSeconds()) return undefined
    if (!(await this.provider.Client.find(token.clientId))) return undefined
    if (grant === 'authorization_code') {
      const stored = token.grantId ? await this.provider.Grant.find(token.grantId) : undefined
      if (!stored || stored.clientId !== token.clientId) return undefined
    }
    const consentId = grant === 'authorization_code' ? (token.extra?.openbanking_intent_id ?? token.accountId) : undefined
    return {
      clientId: token.clientId,
      grant,
      scopes: (token.scope ?? '').split(' ').filter(Boolean),
      ...(consentId ? { consentId } : {}),
      ...(token['x5t#S256'] ? { certificateThumbprint: token['x5t#S256'] } : {}),
      expiresAt: sandboxExp,
    }
  }

  /** Revokes the token (used when it is presented for an unknown client, as DCR 3.2 says). */
  async revoke(accessToken: string): Promise<void> {
    const found = await this.#find(accessToken)
    await found?.token.destroy()
  }

  async #find(value: string): Promise<{ token: StoredToken; grant: TokenInfo['grant'] } | undefined> {
    const at = (await this.provider.AccessToken.find(value)) as unknown as StoredToken | undefined
    if (at) return { token: at, grant: 'authorization_code' }
    const cc = (await this.provider.ClientCredentials.find(value)) as unknown as StoredToken | undefined
    if (cc) return { token: cc, grant: 'client_credentials' }
    return undefined
  }
}
