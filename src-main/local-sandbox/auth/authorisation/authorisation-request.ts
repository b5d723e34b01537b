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

const page = (error: string, description: string): AuthorisationOutcome => ({ kind: 'error-page', error, description })

/**
 * An error found before the request object's redirect URI is known good: to the query's `redirect_uri` when the
 * client registered it (in the query's response mode, with its state), else on the bank's error page.
 */
function redirectOrPage(
  deps: AuthorisationRequestDeps,
  query: URLSearchParams,
  registered: readonly string[],
  error: string,
  description: string,
): AuthorisationOutcome {
  const candidate = query.get('redirect_uri')
  if (!candidate || !registered.includes(candidate)) return page(error, description)
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

type DecodedRequestObject = ReturnType<typeof decodeRequestObject>

/** The request object passed by value (`request`), decoded; or what to answer when there is none or it is no JWT. */
function readRequestObject(
  query: URLSearchParams,
  early: (error: string, description: string) => AuthorisationOutcome,
): { requestJwt: string; decoded: DecodedRequestObject } | AuthorisationOutcome {
  if (query.has('request_uri'))
    return early(
      'request_uri_not_supported',
      'request_uri is not supported; pass the request object by value in the request parameter',
    )
  const requestJwt = query.get('request')
  if (!requestJwt)
    return early(
      'invalid_request',
      'the authorisation request has no request parameter; this bank uses only the values inside a request object (JAR)',
    )
  try {
    return { requestJwt, decoded: decodeRequestObject(requestJwt) }
  } catch (err) {
    return early((err as AuthorisationRequestError).error, (err as Error).message)
  }
}

/** The request object's response_type: present, the query's if the query has one, and registered by the client. */
function checkResponseType(
  claims: Record<string, unknown>,
  query: URLSearchParams,
  registered: readonly string[],
): void {
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
  if (!registered.includes(normalised))
    throw new AuthorisationRequestError(
      'unsupported_response_type',
      `response_type ${JSON.stringify(claims.response_type)} is not registered for this client (registered: ${JSON.stringify(registered)})`,
    )
}

/** The request object's scopes: `openid` among them, and each registered by the client. */
function checkedScopes(claims: Record<string, unknown>, registered: readonly string[]): string[] {
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
  const unregistered = scopes.filter((s) => !registered.includes(s))
  if (unregistered.length)
    throw new AuthorisationRequestError(
      'invalid_scope',
      `scope ${unregistered.join(' ')} was not registered by this client (registered: "${registered.join(' ')}")`,
    )
  return scopes
}

/**
 * The request object's signature (per the client's profile, against its software statement's keys), times,
 * parties, response type, scopes and nonce; returns the scopes. A failure throws AuthorisationRequestError.
 */
async function checkRequestObject(
  deps: AuthorisationRequestDeps,
  request: {
    query: URLSearchParams
    clientId: string
    client: SandboxClientMetadata
    requestJwt: string
    decoded: DecodedRequestObject
  },
): Promise<string[]> {
  const { query, client, requestJwt, decoded } = request
  const { claims } = decoded
  const ob = client.ob_registration
  const software = await deps.directory.software(ob.softwareId)
  await verifyRequestObjectSignature(requestJwt, decoded, ob.profile, software?.jwks ?? client.jwks)
  checkRequestObjectParties(claims, request.clientId, deps.issuer)
  checkRequestObjectTimes(claims, { nowSeconds: deps.nowSeconds(), requireNbf: ob.profile.security === 'strict' })
  checkResponseType(claims, query, ob.responseTypes)
  const scopes = checkedScopes(claims, ob.scopes)
  if (str(claims.nonce) === undefined)
    throw new AuthorisationRequestError(
      'invalid_request_object',
      'the request object has no nonce claim; a nonce is required (it comes back in the ID token)',
    )
  return scopes
}

/** Checks an authorisation request (the query or form parameters) and decides what happens to it. */
export async function checkAuthorisationRequest(
  deps: AuthorisationRequestDeps,
  query: URLSearchParams,
): Promise<AuthorisationOutcome> {
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
  const registered = client.redirect_uris ?? []
  const early = (error: string, description: string) => redirectOrPage(deps, query, registered, error, description)
  const request = readRequestObject(query, early)
  if ('kind' in request) return request
  const { requestJwt, decoded } = request
  const { claims } = decoded

  // From here on errors go to the redirect URI, once it is known to be one the client registered.
  const redirectUri = str(claims.redirect_uri)
  if (redirectUri === undefined)
    return early(
      'invalid_request_object',
      "the request object has no redirect_uri claim; expected one of the client's registered redirect URIs",
    )
  if (!registered.includes(redirectUri))
    return page(
      'invalid_request_object',
      `the request object redirect_uri ${JSON.stringify(redirectUri)} is not registered for client ${clientId} (registered: ${JSON.stringify(registered)}); the bank will not redirect there`,
    )
  try {
    const scopes = await checkRequestObject(deps, { query, clientId, client, requestJwt, decoded })
    const consent = await checkIntent(deps.consents, intentIdOf(claims), clientId, scopes)
    const params = forwardParameters(decoded.alg, requestJwt, claims, clientId)
    return { kind: 'forward', params, client, consent, scopes }
  } catch (err) {
    if (!(err instanceof AuthorisationRequestError)) throw err
    // The response mode of errors follows the response_type the client put in the URL (the one it reads back).
    const responseType = query.get('response_type') ?? str(claims.response_type)
    return {
      kind: 'redirect-error',
      location: errorRedirect(redirectUri, responseType, str(claims.response_mode), {
        error: err.error,
        error_description: err.message.slice(0, 500),
        state: str(claims.state),
        iss: deps.issuer,
      }),
    }
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
