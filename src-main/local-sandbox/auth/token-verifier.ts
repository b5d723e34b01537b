import type Provider from 'oidc-provider'
import type { SandboxClock } from '../clock.ts'
import type { ModelVersion } from '../store/oidc-models.ts'
import type { SandboxOidcStorage } from './provider/oidc-adapter.ts'
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

type TokenModel = 'AccessToken' | 'ClientCredentials'

/** A token checked in full, and the stored records the check relied on. */
interface Verified {
  info: TokenInfo
  model: TokenModel
  /** The stored entries the check relied on (token, client, grant), at the versions read. */
  relied: ModelVersion[]
}

/** Tokens remembered as checked, at most; the oldest are forgotten first (they are checked in full again). */
export const VERIFIED_TOKENS_MAX = 10_000

/**
 * Reads access tokens for the resource server and the registration management endpoints. A token is
 * valid while oidc-provider still holds it (not expired in wall time, not revoked, its client and grant
 * still there) and the sandbox clock has not passed its sandbox expiry either.
 *
 * The first presentation of a token is checked through oidc-provider's models; the facts are then
 * remembered with the versions of the stored entries they came from (token, client and, for an
 * authorisation-code token, grant). A later presentation only confirms, in one look at the store, that
 * those entries are still stored at those versions (not revoked, replaced, destroyed or expired in wall
 * time); the sandbox expiry is compared with the sandbox clock every time. Any difference and the token is
 * checked in full again. Another instance sharing the store revoking the token is seen on the next request.
 */
export class TokenVerifier implements AccessTokenVerifier {
  readonly #verified = new Map<string, Verified>()

  constructor(
    private readonly provider: Provider,
    private readonly clock: SandboxClock,
    private readonly storage?: SandboxOidcStorage,
  ) {}

  async verify(accessToken: string): Promise<TokenInfo | undefined> {
    if (typeof accessToken !== 'string' || accessToken.length === 0 || accessToken.length > 512) return undefined
    const known = this.#verified.get(accessToken)
    if (known) {
      if (await this.storage?.unchanged(known.relied))
        return known.info.expiresAt > this.clock.nowSeconds() ? known.info : undefined
      this.#verified.delete(accessToken)
    }
    const found = await this.#find(accessToken)
    if (!found) return undefined
    const { token, grant, model } = found
    const sandboxExp = token.extra?.sandbox_exp ?? token.exp
    if (sandboxExp <= this.clock.nowSeconds()) return undefined
    if (!(await this.provider.Client.find(token.clientId))) return undefined
    if (grant === 'authorization_code') {
      const stored = token.grantId ? await this.provider.Grant.find(token.grantId) : undefined
      if (!stored || stored.clientId !== token.clientId) return undefined
    }
    const consentId =
      grant === 'authorization_code' ? (token.extra?.openbanking_intent_id ?? token.accountId) : undefined
    const info: TokenInfo = Object.freeze({
      clientId: token.clientId,
      grant,
      scopes: Object.freeze((token.scope ?? '').split(' ').filter(Boolean)) as string[],
      ...(consentId ? { consentId } : {}),
      ...(token['x5t#S256'] ? { certificateThumbprint: token['x5t#S256'] } : {}),
      expiresAt: sandboxExp,
    })
    await this.#remember(accessToken, info, model, grant === 'authorization_code' ? token.grantId : undefined)
    return info
  }

  /** Revokes the token (used when it is presented for an unknown client, as DCR 3.2 says). */
  async revoke(accessToken: string): Promise<void> {
    this.#verified.delete(accessToken)
    const found = await this.#find(accessToken)
    await found?.token.destroy()
  }

  async #remember(accessToken: string, info: TokenInfo, model: TokenModel, grantId: string | undefined) {
    if (!this.storage) return
    const wanted: Array<[string, string]> = [
      [model, accessToken],
      ['Client', info.clientId],
      ...(grantId === undefined ? [] : [['Grant', grantId] as [string, string]]),
    ]
    const relied: ModelVersion[] = []
    for (const [name, id] of wanted) {
      // The version of what the check above read (oidc-provider's find), else read now.
      const version = this.storage.takeLastReadVersion(name, id) ?? (await this.storage.stored(name, id))?.version
      if (version === undefined) return
      relied.push({ model: name, id, version })
    }
    if (this.#verified.size >= VERIFIED_TOKENS_MAX) this.#verified.delete(this.#verified.keys().next().value!)
    this.#verified.set(accessToken, { info, model, relied })
  }

  async #find(
    value: string,
  ): Promise<{ token: StoredToken; grant: TokenInfo['grant']; model: TokenModel } | undefined> {
    const at = (await this.provider.AccessToken.find(value)) as unknown as StoredToken | undefined
    if (at) return { token: at, grant: 'authorization_code', model: 'AccessToken' }
    const cc = (await this.provider.ClientCredentials.find(value)) as unknown as StoredToken | undefined
    if (cc) return { token: cc, grant: 'client_credentials', model: 'ClientCredentials' }
    return undefined
  }
}
