import type { Context } from 'koa'
import type Provider from 'oidc-provider'
import type { SandboxContext } from '../../context.ts'
import { BodyTooLargeError, MAX_BODY_BYTES, readRawBody } from '../../http/body.ts'
import type { ClientStore } from '../client-store.ts'
import { INTERACTION_PATH } from '../provider/provider-config.ts'
import {
  cookieHeaderFrom,
  internalRequest,
  passToProvider,
  providerHandler,
  stripSessionCookies,
  withSyntheticExchange,
} from '../provider/provider-bridge.ts'
import { renderErrorPage } from '../psu/views.ts'
import { approve, headlessSelection } from './approval.ts'
import { checkAuthorisationRequest, type AuthorisationOutcome } from './authorisation-request.ts'

/** oidc-provider's authorisation endpoint path on `{auth_url}`. */
export const AUTHORISATION_PATH = '/auth'
/** The HTTPS stand-in for the bank app's deeplink `<app_scheme>://consent-access-request`. */
export const APP_DEEPLINK_PATH = '/app/consent-access-request'

export interface AuthorisationEndpointDeps {
  sandbox: SandboxContext
  provider: Provider
  clients: ClientStore
}

const wallSeconds = () => Math.floor(Date.now() / 1000)

/**
 * The authorisation endpoint (`GET|POST {auth_url}/auth`, and the app deeplink page with the same
 * query): checks the request (see authorisation-request.ts), then either answers with the error, lets
 * oidc-provider run the PSU journey (non-headless clients), or approves at once as the headless PSU
 * and redirects straight to the client's redirect URI (headless clients).
 */
export async function handleAuthorisation(deps: AuthorisationEndpointDeps, ctx: Context): Promise<void> {
  let params: URLSearchParams
  if (ctx.method === 'POST') {
    if (!ctx.is('application/x-www-form-urlencoded')) {
      ctx.status = 400
      ctx.type = 'html'
      ctx.body = renderErrorPage({
        error: 'invalid_request',
        description: `a POST to the authorisation endpoint must be application/x-www-form-urlencoded, not ${ctx.get('content-type') || 'without a Content-Type'}`,
      })
      return
    }
    const body = await readFormBody(ctx)
    if (body === undefined) return
    params = body
  } else {
    params = new URLSearchParams(ctx.querystring)
  }

  const outcome = await checkAuthorisationRequest(
    {
      issuer: deps.sandbox.addresses.authUrl,
      clients: deps.clients,
      consents: deps.sandbox.consents,
      directory: deps.sandbox.directory,
      nowSeconds: wallSeconds,
    },
    params,
  )
  if (outcome.kind === 'error-page') {
    ctx.status = 400
    ctx.type = 'html'
    ctx.body = renderErrorPage({ error: outcome.error, description: outcome.description })
    return
  }
  if (outcome.kind === 'redirect-error') {
    ctx.status = 303
    ctx.redirect(outcome.location)
    return
  }
  if (outcome.client.ob_registration.profile.headless) return headless(deps, ctx, outcome)

  // Non-headless: oidc-provider starts the interaction (the PSU pages) with the checked parameters.
  ctx.req.method = 'GET'
  ctx.req.url = `${AUTHORISATION_PATH}?${outcome.params.toString()}`
  stripSessionCookies(ctx.req.headers)
  await passToProvider(providerHandler(deps.provider), ctx)
}

/** A form body as parameters, or undefined after answering 413 for one too large. */
export async function readFormBody(ctx: Context): Promise<URLSearchParams | undefined> {
  try {
    return new URLSearchParams((await readRawBody(ctx)).toString('utf8'))
  } catch (err) {
    if (!(err instanceof BodyTooLargeError)) throw err
    ctx.status = 413
    ctx.type = 'html'
    ctx.body = renderErrorPage({
      error: 'invalid_request',
      description: `the form is larger than ${MAX_BODY_BYTES} bytes`,
    })
    return undefined
  }
}

/**
 * Headless: follows oidc-provider's redirects in process (authorisation request, interaction, resume)
 * so the client sees one redirect, to its redirect URI with the code and ID token.
 */
async function headless(
  deps: AuthorisationEndpointDeps,
  ctx: Context,
  outcome: Extract<AuthorisationOutcome, { kind: 'forward' }>,
): Promise<void> {
  const handler = providerHandler(deps.provider)
  const base = { host: ctx.get('host'), accept: 'text/html', 'user-agent': ctx.get('user-agent') || 'headless' }
  const first = await internalRequest(handler, 'GET', `${AUTHORISATION_PATH}?${outcome.params.toString()}`, { ...base })
  const firstLocation = String(first.headers.location ?? '')
  if (
    !firstLocation.startsWith(INTERACTION_PATH) &&
    !firstLocation.startsWith(`${deps.sandbox.addresses.authUrl}${INTERACTION_PATH}`)
  ) {
    // oidc-provider refused the request itself: hand its answer (an error redirect) to the client.
    return relay(deps, ctx, first.status, firstLocation)
  }
  const cookie = cookieHeaderFrom(first.headers['set-cookie'])
  const psu = deps.sandbox.psus.headlessPsu
  const returnTo = await withSyntheticExchange(
    new URL(firstLocation, deps.sandbox.addresses.authUrl).pathname,
    { ...base, cookie },
    async (req, res) => {
      const interaction = await deps.provider.interactionDetails(req, res)
      const result = await approve({
        provider: deps.provider,
        consents: deps.sandbox.consents,
        consent: outcome.consent,
        clientId: outcome.client.client_id,
        psuId: psu.psuId,
        accountIds: headlessSelection(outcome.consent, psu),
        params: interaction.params,
      })
      return deps.provider.interactionResult(req, res, result)
    },
  )
  const final = await internalRequest(handler, 'GET', new URL(returnTo, deps.sandbox.addresses.authUrl).pathname, {
    ...base,
    cookie,
  })
  deps.sandbox.log(
    `local sandbox: headless approval of consent ${outcome.consent.consentId} for client ${outcome.client.client_id} as ${psu.username}`,
  )
  return relay(deps, ctx, final.status, String(final.headers.location ?? ''))
}

function relay(deps: AuthorisationEndpointDeps, ctx: Context, status: number, location: string): void {
  if ((status === 302 || status === 303) && location) {
    ctx.status = 302
    ctx.redirect(location)
    return
  }
  deps.sandbox.log(`local sandbox: headless authorisation ended with HTTP ${status} and no redirect`)
  ctx.status = 400
  ctx.type = 'html'
  ctx.body = renderErrorPage({
    error: 'server_error',
    description: `the headless authorisation could not complete (oidc-provider answered ${status}); try the non-headless profile to see the PSU pages`,
  })
}
