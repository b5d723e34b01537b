import type { Context, Middleware, Next } from 'koa'
import type Provider from 'oidc-provider'
import type { SandboxContext } from '../context.ts'
import { headerValue } from '../http/header-value.ts'
import { APP_DEEPLINK_PATH, AUTHORISATION_PATH, handleAuthorisation } from './authorisation/authorisation-endpoint.ts'
import { ClientStore, freshClientKeys } from './client-store.ts'
import { sandboxDiscovery, TOKEN_PATH, USERINFO_PATH } from './discovery.ts'
import { oauthError, requireTransportCertificate } from './http-responses.ts'
import { isO3Path, o3Routes } from './o3/o3-routes.ts'
import { loadOidcProvider, withConsoleRoutedTo } from './provider/load-provider.ts'
import { alreadyConsumedMessage, SandboxOidcStorage } from './provider/oidc-adapter.ts'
import {
  internalRequest,
  passToProvider,
  providerHandler,
  stripSessionCookies,
  type NodeHandler,
} from './provider/provider-bridge.ts'
import { INTERACTION_PATH, providerConfiguration } from './provider/provider-config.ts'
import { loadOrCreateCookieKeys } from '../keys.ts'
import { handleInteraction } from './psu/interaction-routes.ts'
import { renderErrorPage } from './psu/views.ts'
import { isRegistrationPath, registrationRoutes } from './registration/registration-routes.ts'
import { TokenVerifier } from './token-verifier.ts'
import type { AuthorisationServer } from './types.ts'

const DISCOVERY_PATH = '/.well-known/openid-configuration'
const JWKS_PATH = '/jwks'
/** Host header values whose discovery document is kept (a client may send any Host). */
const MAX_CACHED_HOSTS = 16
const RESUME_PATH = new RegExp(`^${AUTHORISATION_PATH}/[A-Za-z0-9_-]+$`)

/**
 * oidc-provider refuses http, localhost and custom-scheme redirect URIs for web clients of the hybrid
 * flow. The sandbox checks redirect URIs against the software statement instead (the directory validated
 * them), so those three shape rules are lifted; the others (valid URI, no fragment) stay.
 */
function relaxRedirectUriShape(provider: Provider): void {
  const schema = (
    provider.Client as unknown as { Schema: { prototype: { invalidate(message: string, code?: string): void } } }
  ).Schema
  const original = schema.prototype.invalidate
  schema.prototype.invalidate = function invalidate(message: string, code?: string) {
    if (code === 'implicit-force-https' || code === 'implicit-forbid-localhost') return
    if (message.startsWith('redirect_uris must only contain web uris')) return
    original.call(this, message, code)
  }
}

/** The methods of the authorisation server's own endpoints on `{auth_url}` (OPTIONS: CORS preflight, passed on). */
const AUTH_ORIGIN_METHODS: Record<string, string[]> = {
  [TOKEN_PATH]: ['POST', 'OPTIONS'],
  [DISCOVERY_PATH]: ['GET', 'HEAD', 'OPTIONS'],
  [JWKS_PATH]: ['GET', 'HEAD', 'OPTIONS'],
  [AUTHORISATION_PATH]: ['GET', 'POST'],
  [APP_DEEPLINK_PATH]: ['GET'],
}

/** The methods of the userinfo endpoint on `{base_url}`. */
const BASE_ORIGIN_METHODS: Record<string, string[]> = {
  [USERINFO_PATH]: ['GET', 'POST', 'OPTIONS'],
}

/**
 * Answers 405 with `Allow` and an OAuth error body when the path is one of `table`'s and the method is
 * not among its methods (oidc-provider would answer a plain-text 404). True when it answered.
 */
function refuseMethod(kctx: Context, table: Record<string, string[]>): boolean {
  const allowed = table[kctx.path]
  if (!allowed || allowed.includes(kctx.method)) return false
  const allow = allowed.filter((m) => m !== 'OPTIONS' && m !== 'HEAD').join(', ')
  oauthError(kctx, 405, 'invalid_request', `${kctx.method} is not allowed on ${kctx.path}; allowed: ${allow}`, {
    Allow: allow,
  })
  return true
}

/** Error details (oidc-provider's `error_detail`) added to token endpoint errors; unexpected errors logged. */
function wireProviderEvents(provider: Provider, log: (line: string) => void): void {
  provider.on('grant.error', (ctx: Context, err: { error_detail?: string }) => {
    const body = ctx.body as { error_description?: string } | undefined
    if (
      err.error_detail &&
      body &&
      typeof body.error_description === 'string' &&
      !body.error_description.includes(err.error_detail)
    ) {
      body.error_description = `${body.error_description} (${err.error_detail})`
    }
  })
  provider.on('server_error', (_ctx: Context, err: Error) =>
    log(`local sandbox (oidc-provider): server error: ${err.stack ?? String(err)}`),
  )
}

/**
 * Creates the local sandbox's authorisation server: one oidc-provider (issuer `{auth_url}`) with the
 * sandbox's DCR 3.2 registration, PSU pages, headless approval and /o3 helpers around it. See
 * docs/local-sandbox/authorisation.md for every endpoint and check.
 *
 * @example
 *   const auth = await createAuthorisationServer(context)
 *   baseApp.use(auth.baseOrigin)      // {base_url}: token, registration, /o3 (mutual TLS)
 *   authApp.use(auth.authOrigin)      // {auth_url}: discovery, JWKS, authorisation, PSU pages
 *   const info = await auth.tokens.verify(accessToken)
 */
export async function createAuthorisationServer(ctx: SandboxContext): Promise<AuthorisationServer> {
  const { Provider: ProviderClass, errors } = await loadOidcProvider(ctx.log)
  const storage = new SandboxOidcStorage(ctx.store.oidc, {
    onFind: { Client: freshClientKeys(ctx.directory) },
    alreadyConsumed: (model) => new errors.InvalidGrant(alreadyConsumedMessage(model)),
  })
  // Shared by every instance on the store: a PSU's interaction cookie is accepted by whichever one it reaches.
  const cookieKeys = await loadOrCreateCookieKeys(ctx.store.documents)
  const provider = await withConsoleRoutedTo(
    ctx.log,
    async () => new ProviderClass(ctx.addresses.authUrl, providerConfiguration(ctx, storage, cookieKeys)),
  )
  relaxRedirectUriShape(provider)
  wireProviderEvents(provider, ctx.log)
  const clients = new ClientStore(provider, storage)
  const tokens = new TokenVerifier(provider, ctx.clock, storage)
  const origins: Origins = { sandbox: ctx, provider, handler: providerHandler(provider), clients }
  return {
    authOrigin: authOrigin(origins),
    baseOrigin: baseOrigin(origins, tokens),
    tokens,
    clients,
    publicJwks: () => ctx.signingKey.publicJwks,
  }
}

/** What the two origins' middleware serve with. */
interface Origins {
  sandbox: SandboxContext
  provider: Provider
  /** oidc-provider's own request handler. */
  handler: NodeHandler
  clients: ClientStore
}

/** Answers an error no route expected: logged with its stack, and a 500 (an HTML page for a browser's request). */
function answerUnexpected(sandbox: SandboxContext, kctx: Context, err: unknown, html: boolean): void {
  sandbox.log(`local sandbox: unexpected error on ${kctx.method} ${kctx.path}: ${(err as Error).stack ?? String(err)}`)
  const description = `unexpected error in the local sandbox (${(err as Error).message}); this is a sandbox bug, please report it with the x-fapi-interaction-id`
  if (html) {
    kctx.status = 500
    kctx.type = 'html'
    kctx.body = renderErrorPage({ error: 'server_error', description })
  } else {
    oauthError(kctx, 500, 'server_error', description)
  }
}

/**
 * The discovery document and the JWKS. Neither changes while the sandbox runs: oidc-provider's answer is made
 * once (the discovery's per Host, as its URLs follow the Host header) and its bytes served again. Each answers
 * a GET, and says whether it did.
 */
function openEndpoints({ sandbox, handler }: Origins) {
  const discoveryByHost = new Map<string, Buffer>()
  let jwksAnswer: { type: string; body: Buffer } | undefined

  const discovery = async (kctx: Context): Promise<void> => {
    const host = sandbox.fixedAddresses ? new URL(sandbox.addresses.authUrl).host : kctx.get('host')
    let body = discoveryByHost.get(host)
    if (!body) {
      const res = await internalRequest(handler, 'GET', DISCOVERY_PATH, { host, accept: 'application/json' })
      if (res.status !== 200) {
        kctx.status = res.status
        kctx.set('Cache-Control', 'public, max-age=60')
        kctx.body = JSON.parse(res.body.toString('utf8'))
        return
      }
      const document = JSON.parse(res.body.toString('utf8')) as Record<string, unknown>
      body = Buffer.from(JSON.stringify(sandboxDiscovery(document, sandbox.addresses, sandbox.extensions)), 'utf8')
      if (discoveryByHost.size < MAX_CACHED_HOSTS) discoveryByHost.set(host, body)
    }
    kctx.status = 200
    kctx.set('Cache-Control', 'public, max-age=60')
    kctx.type = 'application/json; charset=utf-8'
    kctx.body = body
  }

  const jwks = async (kctx: Context): Promise<void> => {
    if (!jwksAnswer) {
      const res = await internalRequest(handler, 'GET', JWKS_PATH, {
        host: kctx.get('host'),
        accept: 'application/json',
      })
      if (res.status !== 200) return await passToProvider(handler, kctx)
      jwksAnswer = { type: String(res.headers['content-type']), body: res.body }
    }
    // oidc-provider's CORS for its open endpoints: any origin.
    kctx.vary('Origin')
    kctx.set('Access-Control-Allow-Origin', headerValue(kctx.get('Origin') || '*'))
    kctx.status = 200
    kctx.type = jwksAnswer.type
    kctx.body = jwksAnswer.body
  }
  return { discovery, jwks }
}

/**
 * Answers a request to one of `{auth_url}`'s own endpoints: discovery, JWKS, token, authorisation (and the
 * app deeplink page), the provider's resume step and the PSU's interaction pages. False: none of them.
 */
async function authEndpoint(origins: Origins, open: ReturnType<typeof openEndpoints>, kctx: Context): Promise<boolean> {
  const { sandbox, provider, handler, clients } = origins
  const path = kctx.path
  if (path === DISCOVERY_PATH && kctx.method === 'GET') await open.discovery(kctx)
  else if (path === JWKS_PATH && kctx.method === 'GET') await open.jwks(kctx)
  else if (path === JWKS_PATH) await passToProvider(handler, kctx)
  else if (path === TOKEN_PATH) {
    // The token endpoint needs the client certificate, which this origin asks for but does not demand.
    if (requireTransportCertificate(kctx)) await passToProvider(handler, kctx)
  } else if (
    (path === AUTHORISATION_PATH && (kctx.method === 'GET' || kctx.method === 'POST')) ||
    (path === APP_DEEPLINK_PATH && kctx.method === 'GET')
  )
    await handleAuthorisation({ sandbox, provider, clients }, kctx)
  else if (RESUME_PATH.test(path)) {
    stripSessionCookies(kctx.req.headers)
    await passToProvider(handler, kctx)
  } else
    return path.startsWith(`${INTERACTION_PATH}/`) && (await handleInteraction({ sandbox, provider, clients }, kctx))
  return true
}

/** `{auth_url}`: the authorisation server's endpoints, then a JSON 404 naming where the others are. */
function authOrigin(origins: Origins): Middleware {
  const open = openEndpoints(origins)
  return async (kctx: Context, next: Next): Promise<void> => {
    const path = kctx.path
    if (refuseMethod(kctx, AUTH_ORIGIN_METHODS)) return
    try {
      if (await authEndpoint(origins, open, kctx)) return
    } catch (err) {
      if (kctx.respond === false) throw err
      return answerUnexpected(origins.sandbox, kctx, err, path !== DISCOVERY_PATH)
    }
    await next()
    if (kctx.status === 404 && !kctx.body) {
      oauthError(
        kctx,
        404,
        'not_found',
        `no endpoint ${kctx.method} ${path} on the authorisation server ({auth_url}); see ${DISCOVERY_PATH} (the registration and /o3 endpoints are on {base_url}, over mutual TLS)`,
      )
    }
  }
}

/** `{base_url}` (mutual TLS): userinfo, registration and /o3; a 404 naming `{auth_url}` for the token endpoint. */
function baseOrigin(origins: Origins, tokens: TokenVerifier): Middleware {
  const { sandbox: ctx, handler, clients } = origins
  const registration = registrationRoutes({ sandbox: ctx, clients, tokens })
  const o3 = o3Routes({ sandbox: ctx, clients, tokens })
  const handle = async (kctx: Context, next: Next): Promise<void> => {
    let downstream = false
    try {
      if (kctx.path === TOKEN_PATH) {
        return oauthError(
          kctx,
          404,
          'not_found',
          `the token endpoint is on the authorisation server: ${ctx.addresses.authUrl}${TOKEN_PATH} (discovery's token_endpoint), with the client certificate; {base_url} does not serve ${TOKEN_PATH}`,
        )
      }
      if (kctx.path === USERINFO_PATH) {
        if (refuseMethod(kctx, BASE_ORIGIN_METHODS)) return
        if (!requireTransportCertificate(kctx)) return
        return await passToProvider(handler, kctx)
      }
      await registration(kctx, () =>
        o3(kctx, () => {
          downstream = true
          return next()
        }),
      )
    } catch (err) {
      // Errors of the routes after these (AIS, PIS) are theirs to answer.
      if (downstream || kctx.respond === false) throw err
      answerUnexpected(ctx, kctx, err, false)
    }
  }
  // Every other path (AIS, PIS) goes on at once, through none of the routes above.
  return (kctx, next) => {
    const path = kctx.path
    const ours = path === TOKEN_PATH || path === USERINFO_PATH || isRegistrationPath(path) || isO3Path(path)
    return ours ? handle(kctx, next) : next()
  }
}
