import type { Configuration, KoaContextWithOIDC } from 'oidc-provider'
import type { SandboxContext } from '../../context.ts'
import { peerCertificate } from '../../http/peer-certificate.ts'
import { renderErrorPage } from '../psu/views.ts'
import type { SandboxOidcStorage } from './oidc-adapter.ts'

/** The claim carrying the consent id, in request objects, ID tokens and userinfo. */
export const INTENT_CLAIM = 'openbanking_intent_id'
export const ACR_SCA = 'urn:openbanking:psd2:sca'
export const ACR_CA = 'urn:openbanking:psd2:ca'

/** Lifetimes in seconds (wall clock, as oidc-provider counts them). */
export const TOKEN_TTL = {
  AccessToken: 3600,
  ClientCredentials: 3600,
  IdToken: 3600,
  AuthorizationCode: 600,
  RefreshToken: 90 * 24 * 3600,
  Grant: 365 * 24 * 3600,
  Interaction: 3600,
  Session: 3600,
} as const

/** The path prefix of the PSU pages (oidc-provider's `interactions.url`). */
export const INTERACTION_PATH = '/interaction'

/** Extra token data, kept in the token's `extra` (opaque tokens: never shown to the client). */
export interface SandboxTokenExtra {
  /** Expiry in sandbox-clock seconds: the token also expires when the sandbox clock passes it. */
  sandbox_exp: number
  openbanking_intent_id?: string
}

/**
 * The oidc-provider configuration of the local sandbox: PS256 everywhere, `code id_token` with request
 * objects, client credentials, certificate-bound access tokens (RFC 8705), the claims parameter, and the
 * sandbox's own PSU pages as interactions. Dynamic registration is served by the sandbox's DCR 3.2
 * routes (not oidc-provider's RFC 7591 endpoint), which validate and store clients through `Client`.
 */
export function providerConfiguration(
  ctx: SandboxContext,
  storage: SandboxOidcStorage,
  /** The keys its cookies are signed with (keys.ts, loadOrCreateCookieKeys): the same on every instance. */
  cookieKeys: string[],
): Configuration {
  return {
    adapter: (name: string) => storage.adapter(name),
    clients: [],
    jwks: { keys: [ctx.signingKey.privateJwk] },
    cookies: { keys: cookieKeys },
    acrValues: [ACR_SCA, ACR_CA],
    claims: { openid: ['sub', INTENT_CLAIM] },
    conformIdTokenClaims: false,
    scopes: ['openid', 'accounts', 'payments'],
    subjectTypes: ['public'],
    responseTypes: ['code id_token', 'code'],
    // tls_client_auth only as the extension beyond the bank's spec (the `tlsClientAuth` option).
    clientAuthMethods: [
      'private_key_jwt',
      'client_secret_basic',
      ...(ctx.extensions?.tlsClientAuth ? ['tls_client_auth' as const] : []),
    ],
    clockTolerance: 60,
    enabledJWA: {
      clientAuthSigningAlgValues: ['PS256'],
      idTokenSigningAlgValues: ['PS256'],
      requestObjectSigningAlgValues: ['PS256'],
      userinfoSigningAlgValues: ['PS256'],
    },
    features: providerFeatures(ctx),
    extraClientMetadata: {
      properties: ['ob_registration'],
      validator(_ctx, key, value) {
        if (key === 'ob_registration' && (typeof value !== 'object' || value === null))
          throw new Error('ob_registration must be an object')
      },
    },
    ...accountHooks(ctx),
    interactions: { url: (_ctx, interaction) => `${INTERACTION_PATH}/${interaction.uid}` },
    // Every authorisation-code grant gets a refresh token (UK banks do, for AIS access without the PSU).
    issueRefreshToken: async (_ctx, _client, code) => ['AuthorizationCode', 'RefreshToken'].includes(code.kind),
    rotateRefreshToken: false,
    expiresWithSession: async () => false,
    pkce: { required: () => false },
    allowOmittingSingleRegisteredRedirectUri: false,
    clientBasedCORS: () => false,
    async renderError(c, out) {
      c.type = 'html'
      c.body = renderErrorPage({
        error: String(out.error),
        description: out.error_description ? String(out.error_description) : undefined,
      })
    },
    ttl: { ...TOKEN_TTL },
  }
}

/**
 * oidc-provider's features: client credentials, the claims parameter, userinfo, request objects (unsigned
 * allowed: the sandbox checks them first), FAPI 1.0 Final for the hybrid flow, and mutual TLS with
 * certificate-bound tokens; devInteractions, logout, revocation, introspection, its own registration, resource
 * indicators, PAR and DPoP off.
 */
function providerFeatures(ctx: SandboxContext): Configuration['features'] {
  return {
    devInteractions: { enabled: false },
    clientCredentials: { enabled: true },
    claimsParameter: { enabled: true },
    userinfo: { enabled: true },
    rpInitiatedLogout: { enabled: false },
    revocation: { enabled: false },
    introspection: { enabled: false },
    registration: { enabled: false },
    resourceIndicators: { enabled: false },
    pushedAuthorizationRequests: { enabled: false },
    dPoP: { enabled: false },
    requestObjects: {
      enabled: true,
      requireSignedRequestObject: false,
      // The sandbox checks request objects in full before oidc-provider sees them (authorisation-request.ts);
      // this keeps FAPI's exp requirement without FAPI's mandatory nbf (permissive clients may leave it out).
      async assertJwtClaimsAndHeader(_ctx, claims) {
        if (typeof claims.exp !== 'number') throw new Error('Request Object is missing the exp claim')
      },
    },
    // FAPI 1.0 Final for the hybrid flow: s_hash in ID tokens, nonce required. Plain `code` (no ID token
    // in the front channel) runs without the FAPI profile, which would demand JARM.
    fapi: {
      enabled: true,
      profile: (c: KoaContextWithOIDC) => (c?.oidc?.params?.response_type === 'code' ? undefined : '1.0 Final'),
    },
    mTLS: {
      enabled: true,
      certificateBoundAccessTokens: true,
      getCertificate: (c: KoaContextWithOIDC) => peerCertificate(c)?.pem,
      certificateAuthorized: (c: KoaContextWithOIDC) => peerCertificate(c)?.trusted === true,
      tlsClientAuth: ctx.extensions?.tlsClientAuth === true,
      // tls_client_auth: the registered subject DN, in either order the sandbox writes a DN.
      certificateSubjectMatches: (c: KoaContextWithOIDC, property: string, expected: string) => {
        const peer = peerCertificate(c)
        return (
          property === 'tls_client_auth_subject_dn' &&
          !!peer?.trusted &&
          (peer.subjectDn === expected || peer.certificateSubjectDn === expected)
        )
      },
    },
  }
}

/** The token claims (the sandbox's own expiry, the intent) and the account (the authorised consent) lookups. */
function accountHooks(ctx: SandboxContext): Pick<Configuration, 'extraTokenClaims' | 'findAccount'> {
  return {
    async extraTokenClaims(_ctx, token) {
      const ttl = token.kind === 'ClientCredentials' ? TOKEN_TTL.ClientCredentials : TOKEN_TTL.AccessToken
      const accountId = (token as { accountId?: string }).accountId
      const extra: SandboxTokenExtra = {
        sandbox_exp: ctx.clock.nowSeconds() + ttl,
        ...(accountId ? { [INTENT_CLAIM]: accountId } : {}),
      }
      return { ...extra }
    },
    // `sub` is the consent id (as Ozone does): the "account" is the PSU's authorised consent. While the
    // authorisation resumes after the PSU's approval, the consent may have been revoked a moment before
    // (another request, or another instance on a shared store): the flow then still ends with its code,
    // which the token endpoint refuses (invalid_grant: the account, the authorised consent, is not found).
    async findAccount(kctx, sub) {
      const consent = await ctx.consents.get(sub)
      const resuming = (kctx as { oidc?: { route?: string } } | undefined)?.oidc?.route === 'resume'
      if (!consent) return undefined
      if (!resuming && (consent.status !== 'AUTH' || (consent.kind === 'ais' && consent.deleted))) return undefined
      return { accountId: sub, claims: async () => ({ sub, [INTENT_CLAIM]: sub }) }
    },
  }
}
