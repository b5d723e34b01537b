import type { ConsentRecord, ConsentStore } from '../../consents/consent-store.ts'
import type { Directory } from '../../directory/types.ts'
import type { ClientStore, SandboxClientMetadata } from '../client-store.ts'
import {
  AuthorisationRequestError,
  checkRequestObjectParties,
  checkRequestObjectTimes,
  decodeRequestObject,
  intentIdOf,
  verifyRequestObjectSignature,
} from './request-object.ts'

/**
 * The sandbox's check of an authorisation request, before oidc-provider sees it: the client, the
 * request object (signature per profile, times, parties), the redirect URI, response type, scope, nonce,
 * and the intent (exists, this client's, AWAU, matching the scope). A request that passes is handed to
 * oidc-provider: a PS256 request object as is, an `alg: none` one unwrapped into plain parameters.
 */

export interface AuthorisationRequestDeps {
  issuer: string
  clients: ClientStore
  consents: ConsentStore
  directory: Directory
  /** Wall-clock seconds (request objects are made with the TPP's clock). */
  nowSeconds: () => number
}

export type AuthorisationOutcome =
  | {
      kind: 'forward'
      params: URLSearchParams
      client: SandboxClientMetadata
      consent: ConsentRecord
      scopes: string[]
    }
  | { kind: 'redirect-error'; location: string }
  | { kind: 'error-page'; error: string; description: string }

/** Parameters of an unwrapped `alg: none` request object passed on to oidc-provider. */
const PASSED_PARAMETERS = [
  'client_id',
  'response_type',
  'scope',
  'redirect_uri',
  'state',
  'nonce',
  'claims',
  'response_mode',
  'max_age',
  'prompt',
  'acr_values',
  'login_hint',
  'ui_locales',
]

/** Where an error for this request goes: fragment for ID-token response types, else query (RFC 6749 4.1.2.1). */
export function errorRedirect(
  redirectUri: string,
  responseType: string | undefined,
  responseMode: string | undefined,
  params: Record<string, string | undefined>,
): string {
  const mode =
    responseMode === 'query' || responseMode === 'fragment'
      ? responseMode
      : responseType?.split(' ').includes('id_token')
        ? 'fragment'
        : 'query'
  const url = new URL(redirectUri)
  const entries = Object.entries(params).filter((e): e is [string, string] => typeof e[1] === 'string')
  if (mode === 'query') for (const [k, v] of entries) url.searchParams.set(k, v)
  else url.hash = new URLSearchParams(entries).toString()
  return url.href
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined
}

/** Checks an authorisation request (the query or form parameters) and decides what happens to it. */
export async function checkAuthorisationRequest(
  deps: AuthorisationRequestDeps,
  query: URLSearchParams,
): Promise<AuthorisationOutcome> {
  const page = (error: string, description: string): AuthorisationOutcome => ({
    kind: 'error-page',
    error,
    description,
  })
  const clientId = query.get('client_id')
  if (!clientId)
    return page(
      'invalid_request',
      'the authorisation request has no client_id parameter; expected the client_id from the registration response',
    )
  const client = await deps.clients.metadata(clientId)
  if (!client)
    return page(
      'invalid_client',
      `no client ${clientId} is registered with this sandbox; register first (POST {base_url}/dynamic-client-registration/v3.2/register)`,
    )
  const ob = client.ob_registration
  const registered = client.redirect_uris ?? []

  if (query.has('request_uri'))
    return redirectOrPage(
      query.get('redirect_uri'),
      'request_uri_not_supported',
      'request_uri is not supported; pass the request object by value in the request parameter',
    )
  const requestJwt = query.get('request')
  if (!requestJwt)
    return redirectOrPage(
      query.get('redirect_uri'),
      'invalid_request',
      'the authorisation request has no request parameter; this bank uses only the values inside a request object (JAR)',
    )

  let claims: Record<string, unknown> = {}
  let decoded
  try {
    decoded = decodeRequestObject(requestJwt)
    claims = decoded.claims
  } catch (err) {
    return redirectOrPage(query.get('redirect_uri'), (err as AuthorisationRequestError).error, (err as Error).message)
  }

  // From here on errors go to the redirect URI, once it is known to be one the client registered.
  const redirectUri = str(claims.redirect_uri)
  if (redirectUri === undefined)
    return redirectOrPage(
      query.get('redirect_uri'),
      'invalid_request_object',
      "the request object has no redirect_uri claim; expected one of the client's registered redirect URIs",
    )
  if (!registered.includes(redirectUri))
    return page(
      'invalid_request_object',
      `the request object redirect_uri ${JSON.stringify(redirectUri)} is not registered for client ${clientId} (registered: ${JSON.stringify(registered)}); the bank will not redirect there`,
    )
  // The response mode of errors follows the response_type the client put in the URL (the one it reads back).
  const responseType = query.get('response_type') ?? str(claims.response_type)
  const state = str(claims.state)
  const fail = (error: string, description: string): AuthorisationOutcome => ({
    kind: 'redirect-error',
    location: errorRedirect(redirectUri, responseType, str(claims.response_mode), {
      error,
      error_description: description.slice(0, 500),
      state,
      iss: deps.issuer,
    }),
  })

  try {
    const software = await deps.directory.software(ob.softwareId)
    await verifyRequestObjectSignature(requestJwt, decoded, ob.profile, software?.jwks ?? (client.jwks as never))
    checkRequestObjectParties(claims, clientId, deps.issuer)
    checkRequestObjectTimes(claims, { nowSeconds: deps.nowSeconds(), requireNbf: ob.profile.security === 'strict' })
    const queryType = query.get('response_type')
    if (str(claims.response_type) === undefined)
      throw new AuthorisationRequestError(
        'invalid_request_object',
        'the request object has no response_type claim; expected "code id_token"',
      )
    if (queryType && queryType !== claims.response_type)
      throw new AuthorisationRequestError(
        'invalid_request_object',
        `the request object response_type ${JSON.stringify(claims.response_type)} differs from the query's ${JSON.stringify(queryType)}`,
      )
    const normalised = [...new Set(String(claims.response_type).split(' '))].sort().join(' ')
    if (!ob.responseTypes.includes(normalised))
      throw new AuthorisationRequestError(
        'unsupported_response_type',
        `response_type ${JSON.stringify(claims.response_type)} is not registered for this client (registered: ${JSON.stringify(ob.responseTypes)})`,
      )
    const scopes = [
      ...new Set(
        String(str(claims.scope) ?? '')
          .split(' ')
          .filter(Boolean),
      ),
    ]
    if (!scopes.includes('openid'))
      throw new AuthorisationRequestError(
        'invalid_scope',
        `the request object scope is ${JSON.stringify(claims.scope ?? null)}; expected "openid accounts" or "openid payments"`,
      )
    const unregistered = scopes.filter((s) => !ob.scopes.includes(s))
    if (unregistered.length)
      throw new AuthorisationRequestError(
        'invalid_scope',
        `scope ${unregistered.join(' ')} was not registered by this client (registered: "${ob.scopes.join(' ')}")`,
      )
    if (str(claims.nonce) === undefined)
      throw new AuthorisationRequestError(
        'invalid_request_object',
        'the request object has no nonce claim; a nonce is required (it comes back in the ID token)',
      )
    const consent = await checkIntent(deps.consents, intentIdOf(claims), clientId, scopes)
    return {
      kind: 'forward',
      params: forwardParameters(decoded.alg, requestJwt, claims, clientId),
      client,
      consent,
      scopes,
    }
  } catch (err) {
    if (err instanceof AuthorisationRequestError) return fail(err.error, err.message)
    throw err
  }

  function redirectOrPage(candidate: string | null, error: string, description: string): AuthorisationOutcome {
    if (candidate && registered.includes(candidate)) {
      return {
        kind: 'redirect-error',
        location: errorRedirect(
          candidate,
          query.get('response_type') ?? undefined,
          query.get('response_mode') ?? undefined,
          {
            error,
            error_description: description.slice(0, 500),
            state: query.get('state') ?? undefined,
            iss: deps.issuer,
          },
        ),
      }
    }
    return page(error, description)
  }
}

/** The intent must exist, belong to the client, await authorisation, and match the requested scope. */
export async function checkIntent(
  consents: ConsentStore,
  intentId: string,
  clientId: string,
  scopes: string[],
): Promise<ConsentRecord> {
  const consent = await consents.get(intentId)
  if (!consent || (consent.kind === 'ais' && consent.deleted)) {
    throw new AuthorisationRequestError(
      'invalid_request',
      `openbanking_intent_id ${JSON.stringify(intentId)} names no consent; create the account access consent or payment consent first and use its ConsentId`,
    )
  }
  if (consent.clientId !== clientId) {
    throw new AuthorisationRequestError(
      'invalid_request',
      `consent ${intentId} was created by another client, not ${clientId}; a client can only authorise its own consents`,
    )
  }
  if (consent.status !== 'AWAU') {
    throw new AuthorisationRequestError(
      'invalid_request',
      `consent ${intentId} has status ${consent.status}; only a consent awaiting authorisation (AWAU) can be authorised`,
    )
  }
  if (consent.kind === 'ais' && !scopes.includes('accounts'))
    throw new AuthorisationRequestError(
      'invalid_scope',
      `consent ${intentId} is an account access consent; the scope must include accounts (found "${scopes.join(' ')}")`,
    )
  if (consent.kind === 'pis' && !scopes.includes('payments'))
    throw new AuthorisationRequestError(
      'invalid_scope',
      `consent ${intentId} is a payment consent; the scope must include payments (found "${scopes.join(' ')}")`,
    )
  return consent
}

/** What oidc-provider receives: a signed request object as is; an unsigned one as plain parameters. */
function forwardParameters(
  alg: string,
  requestJwt: string,
  claims: Record<string, unknown>,
  clientId: string,
): URLSearchParams {
  if (alg !== 'none') {
    return new URLSearchParams({
      client_id: clientId,
      response_type: String(claims.response_type),
      scope: String(claims.scope),
      request: requestJwt,
    })
  }
  const out = new URLSearchParams()
  for (const name of PASSED_PARAMETERS) {
    const value = claims[name]
    if (value === undefined || value === null) continue
    out.set(name, typeof value === 'object' ? JSON.stringify(value) : String(value))
  }
  out.set('client_id', clientId)
  return out
}
