import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto'
import type { Context, Next } from 'koa'
import { base64url } from 'jose'
import type { ConsentRecord } from '../../consents/consent-store.ts'
import type { SandboxContext } from '../../context.ts'
import { quotedHeaderValue } from '../../http/header-value.ts'
import type { PeerCertificate } from '../../http/peer-certificate.ts'
import { AUTHORISATION_PATH } from '../authorisation/authorisation-endpoint.ts'
import type { ClientStore, SandboxClientMetadata } from '../client-store.ts'
import { TOKEN_PATH } from '../discovery.ts'
import {
  basicCredentials,
  bearerChallenge,
  bearerToken,
  oauthError,
  requireTransportCertificate,
  safeDecode,
} from '../http-responses.ts'
import { ACR_CA, ACR_SCA, INTENT_CLAIM } from '../provider/provider-config.ts'
import { REGISTRATION_PATH } from '../registration/registration-routes.ts'
import type { TokenVerifier } from '../token-verifier.ts'

export const AUTH_CODE_URL_PATH = '/o3/v1.0/auth-code-url/'
export const POSTMAN_ENVIRONMENT_PATH = '/o3/v1.0/postman/environment'
/** Lifetime of the request objects the auth-code-url helper builds. */
export const HELPER_REQUEST_OBJECT_TTL_SECONDS = 600

export interface O3Deps {
  sandbox: SandboxContext
  clients: ClientStore
  tokens: TokenVerifier
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

/**
 * The sandbox-only convenience endpoints of the bank's spec section 4.4, on `{base_url}` over mutual TLS:
 * the authorisation URL of a consent (request object built server-side, unsigned), and a Postman
 * environment pre-filled with the sandbox's addresses. Calls `next()` for other paths.
 */
/** Whether `path` is one of the /o3 helpers'. */
export function isO3Path(path: string): boolean {
  return path.startsWith(AUTH_CODE_URL_PATH) || path === POSTMAN_ENVIRONMENT_PATH
}

export function o3Routes(deps: O3Deps) {
  return async (ctx: Context, next: Next): Promise<void> => {
    if (!isO3Path(ctx.path)) return next()
    const isAuthCodeUrl = ctx.path.startsWith(AUTH_CODE_URL_PATH)
    const peer = requireTransportCertificate(ctx)
    if (!peer) return
    if (ctx.method !== 'GET')
      return oauthError(ctx, 405, 'invalid_request', `${ctx.method} is not allowed on ${ctx.path}; use GET`, {
        Allow: 'GET',
      })
    if (isAuthCodeUrl) {
      const consentId = safeDecode(ctx.path.slice(AUTH_CODE_URL_PATH.length))
      if (consentId === undefined)
        return oauthError(ctx, 400, 'invalid_request', `the consent id in ${ctx.path} is not valid percent-encoding`)
      return authCodeUrl(deps, ctx, peer, consentId)
    }
    return postmanEnvironment(deps, ctx, peer)
  }
}

/** The calling client: by client_secret_basic, or by a client-credentials token bound to this connection. */
async function callingClient(
  deps: O3Deps,
  ctx: Context,
  peer: PeerCertificate,
): Promise<SandboxClientMetadata | undefined> {
  const basic = basicCredentials(ctx)
  if (basic) {
    const client = await deps.clients.metadata(basic.clientId)
    if (!client?.client_secret || !same(client.client_secret, basic.secret)) {
      oauthError(
        ctx,
        401,
        'invalid_client',
        `client_secret_basic failed for client ${basic.clientId}: unknown client, wrong secret, or a private_key_jwt client (which authenticates here with a client-credentials bearer token)`,
        { 'WWW-Authenticate': 'Basic realm="local sandbox"' },
      )
      return undefined
    }
    return client
  }
  const token = bearerToken(ctx)
  if (token) {
    const info = await deps.tokens.verify(token)
    if (
      !info ||
      info.grant !== 'client_credentials' ||
      (info.certificateThumbprint && info.certificateThumbprint !== peer.thumbprint)
    ) {
      const description = 'the bearer token is not a valid client-credentials token bound to this transport certificate'
      oauthError(ctx, 401, 'invalid_token', description, bearerChallenge('invalid_token', description))
      return undefined
    }
    return deps.clients.metadata(info.clientId)
  }
  oauthError(
    ctx,
    401,
    'invalid_client',
    'authenticate the caller: "Authorization: Basic base64(client_id:client_secret)" (client_secret_basic clients) or "Authorization: Bearer <client-credentials token>"',
    { 'WWW-Authenticate': 'Basic realm="local sandbox", Bearer' },
  )
  return undefined
}

/** Answers an OAuth error and gives undefined, for the checks below that either give a value or answer. */
function refused(ctx: Context, status: number, error: string, description: string): undefined {
  oauthError(ctx, status, error, description)
  return undefined
}

/** The consent of the path: one this client created, awaiting authorisation. Otherwise the error answered. */
async function authorisableConsent(
  deps: O3Deps,
  ctx: Context,
  client: SandboxClientMetadata,
  consentId: string,
): Promise<ConsentRecord | undefined> {
  const consent = consentId ? await deps.sandbox.consents.get(consentId) : undefined
  if (!consent || (consent.kind === 'ais' && consent.deleted))
    return refused(
      ctx,
      400,
      'invalid_request',
      `no consent ${JSON.stringify(consentId)}; create an account access consent or a domestic payment consent and pass its ConsentId in the path`,
    )
  if (consent.clientId !== client.client_id)
    return refused(ctx, 403, 'access_denied', `consent ${consentId} belongs to another client, not ${client.client_id}`)
  if (consent.status !== 'AWAU')
    return refused(
      ctx,
      400,
      'invalid_request',
      `consent ${consentId} has status ${consent.status}; only a consent awaiting authorisation (AWAU) can be authorised`,
    )
  return consent
}

/**
 * The query's scope (the consent's kind's, registered by the client), alg (none only), and redirect_uri (one the
 * client registered; default its first), for a client of the permissive profile. Otherwise the error answered.
 */
function helperQuery(
  ctx: Context,
  client: SandboxClientMetadata,
  consent: ConsentRecord,
): { scope: string; redirectUri: string } | undefined {
  const ob = client.ob_registration
  const expectedScope = consent.kind === 'ais' ? 'accounts' : 'payments'
  const scope = ctx.query.scope === undefined ? expectedScope : String(ctx.query.scope)
  if (scope !== expectedScope)
    return refused(
      ctx,
      400,
      'invalid_scope',
      `scope is ${JSON.stringify(scope)} but consent ${consent.consentId} is ${consent.kind === 'ais' ? 'an account access' : 'a payment'} consent; use scope=${expectedScope}`,
    )
  if (!ob.scopes.includes(scope))
    return refused(
      ctx,
      400,
      'invalid_scope',
      `client ${client.client_id} did not register the scope ${scope} (registered: "${ob.scopes.join(' ')}")`,
    )
  const alg = ctx.query.alg === undefined ? 'none' : String(ctx.query.alg)
  if (alg !== 'none')
    return refused(
      ctx,
      400,
      'invalid_request',
      `alg=${alg}: this helper builds unsigned request objects only (alg=none); the sandbox does not hold the client's private key, so a PS256 request object must be signed by the client itself`,
    )
  if (ob.profile.security !== 'permissive')
    return refused(
      ctx,
      400,
      'unauthorized_client',
      `client ${client.client_id} has the strict profile, which accepts only PS256 request objects signed by the client; sign your own request object (or register with sandbox_profile "permissive" to use this helper)`,
    )
  const requested = ctx.query.redirect_uri === undefined ? undefined : String(ctx.query.redirect_uri)
  const redirectUris = client.redirect_uris ?? []
  if (requested !== undefined && !redirectUris.includes(requested))
    return refused(
      ctx,
      400,
      'invalid_request',
      `redirect_uri ${JSON.stringify(requested)} is not registered for client ${client.client_id} (registered: ${JSON.stringify(redirectUris)})`,
    )
  return { scope, redirectUri: requested ?? redirectUris[0]! }
}

/** The unsigned (alg none) request object for the consent, valid HELPER_REQUEST_OBJECT_TTL_SECONDS. */
function unsignedRequestObject(
  deps: O3Deps,
  client: SandboxClientMetadata,
  consent: ConsentRecord,
  chosen: { scope: string; redirectUri: string; responseType: string },
) {
  const now = Math.floor(Date.now() / 1000)
  const state = randomBytes(16).toString('base64url')
  const nonce = randomBytes(16).toString('base64url')
  const intent = { value: consent.consentId, essential: true }
  const claims = {
    iss: client.client_id,
    aud: deps.sandbox.addresses.authUrl,
    client_id: client.client_id,
    response_type: chosen.responseType,
    scope: `openid ${chosen.scope}`,
    redirect_uri: chosen.redirectUri,
    state,
    nonce,
    iat: now,
    nbf: now,
    exp: now + HELPER_REQUEST_OBJECT_TTL_SECONDS,
    jti: randomUUID(),
    claims: {
      id_token: { [INTENT_CLAIM]: intent, acr: { essential: true, values: [ACR_SCA, ACR_CA] } },
      userinfo: { [INTENT_CLAIM]: intent },
    },
  }
  const encode = (o: object) => base64url.encode(JSON.stringify(o))
  return { claims, requestObject: `${encode({ alg: 'none', typ: 'JWT' })}.${encode(claims)}.` }
}

/** `GET /o3/v1.0/auth-code-url/{ConsentId}`: the authorisation URL of the caller's consent, its request object unsigned. */
async function authCodeUrl(deps: O3Deps, ctx: Context, peer: PeerCertificate, consentId: string): Promise<void> {
  const client = await callingClient(deps, ctx, peer)
  if (!client) return
  const consent = await authorisableConsent(deps, ctx, client, consentId)
  if (!consent) return
  const chosen = helperQuery(ctx, client, consent)
  if (!chosen) return
  const { scope, redirectUri } = chosen
  const responseType = client.ob_registration.responseTypes.includes('code id_token') ? 'code id_token' : 'code'
  const { claims, requestObject } = unsignedRequestObject(deps, client, consent, { ...chosen, responseType })
  const { state, nonce } = claims
  const query = new URLSearchParams({
    client_id: client.client_id,
    response_type: responseType,
    scope: `openid ${scope}`,
    redirect_uri: redirectUri,
    state,
    nonce,
    request: requestObject,
  })
  ctx.status = 200
  ctx.set('Cache-Control', 'no-store')
  ctx.body = {
    url: `${deps.sandbox.addresses.authUrl}${AUTHORISATION_PATH}?${query.toString()}`,
    consentId: consent.consentId,
    clientId: client.client_id,
    scope: `openid ${scope}`,
    redirectUri,
    state,
    nonce,
    expiresAt: claims.exp,
    requestObject,
  }
}

async function postmanEnvironment(deps: O3Deps, ctx: Context, peer: PeerCertificate): Promise<void> {
  const clientId = ctx.query.client_id === undefined ? '' : String(ctx.query.client_id)
  if (!clientId)
    return oauthError(
      ctx,
      400,
      'invalid_request',
      'the client_id query parameter is required: GET /o3/v1.0/postman/environment?client_id=<your client id>',
    )
  const client = await deps.clients.metadata(clientId)
  if (!client) return oauthError(ctx, 400, 'invalid_request', `no client ${clientId} is registered with this sandbox`)
  if (client.ob_registration.orgId !== peer.orgId) {
    return oauthError(
      ctx,
      403,
      'access_denied',
      `client ${clientId} belongs to organisation ${client.ob_registration.orgId}, but the transport certificate is organisation ${peer.orgId ?? '(none)'}; only the client's own organisation may download its environment`,
    )
  }
  const { baseUrl, authUrl } = deps.sandbox.addresses
  const values: Array<[string, string]> = [
    ['rs', baseUrl],
    ['base_url', baseUrl],
    ['issuer', authUrl],
    ['auth_url', authUrl],
    ['discoveryEndpoint', `${authUrl}/.well-known/openid-configuration`],
    ['tokenEndpoint', `${authUrl}${TOKEN_PATH}`],
    ['authEndpoint', `${authUrl}${AUTHORISATION_PATH}`],
    ['registrationEndpoint', `${baseUrl}${REGISTRATION_PATH}`],
    ['jwks-uri', `${authUrl}/jwks`],
    ['authCodeUrlEndpoint', `${baseUrl}${AUTH_CODE_URL_PATH}`],
    ['client_id', clientId],
    ...(client.client_secret ? [['client_secret', client.client_secret] as [string, string]] : []),
    ['software_id', client.ob_registration.softwareId],
    ['org_id', client.ob_registration.orgId],
    ['redirect_uri', client.redirect_uris?.[0] ?? ''],
    ['aisBasePath', `${baseUrl}/open-banking/v4.0/aisp`],
    ['pisBasePath', `${baseUrl}/open-banking/v4.0/pisp`],
  ]
  ctx.status = 200
  ctx.set(
    'Content-Disposition',
    `attachment; filename="local-sandbox-${quotedHeaderValue(clientId, 128)}.postman_environment.json"`,
  )
  ctx.set('Cache-Control', 'no-store')
  ctx.body = {
    id: randomUUID(),
    name: `Local sandbox - ${client.client_name ?? clientId}`,
    values: values.map(([key, value]) => ({ key, value, type: 'default', enabled: true })),
    _postman_variable_scope: 'environment',
    _postman_exported_at: deps.sandbox.clock.now().toISOString(),
    _postman_exported_using: 'OB Console local sandbox',
  }
}
