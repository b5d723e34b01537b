import { AppError } from '../../core/app-error.ts'
import type { FlowContext, FlowResponse } from '../flow-context.ts'
import { stepKey, type StepDefinition } from '../step-machine.ts'
import { DISCOVERY_STEP, type Discovery } from './discovery.ts'
import { answerShape, readBankAnswer } from './bank-answer.ts'

export interface TokenSet {
  accessToken: string
  tokenType: string
  expiresIn?: number
  scope?: string
  idToken?: string
  refreshToken?: string
}

/**
 * What the bank's discovery document advertises for the token endpoint, with OpenID Connect Discovery's
 * defaults where a member is absent (grants: authorization_code and implicit; client authentication:
 * client_secret_basic).
 */
export function advertised(discovery: Discovery): { grants: string[]; authMethods: string[] } {
  const list = (v: unknown, dflt: string[]) =>
    Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : dflt
  return {
    grants: list(discovery.grant_types_supported, ['authorization_code', 'implicit']),
    authMethods: list(discovery.token_endpoint_auth_methods_supported, ['client_secret_basic']),
  }
}

/** Refuses a grant or a client authentication the discovery document does not advertise, naming it. */
export function requireAdvertised(discovery: Discovery, what: 'grant' | 'auth', value: string): void {
  const a = advertised(discovery)
  const [list, member] =
    what === 'grant' ? [a.grants, 'grant_types_supported'] : [a.authMethods, 'token_endpoint_auth_methods_supported']
  if (list.includes(value)) return
  const present = Array.isArray(discovery[member])
  throw new AppError('NOT_ADVERTISED', {
    what:
      what === 'grant'
        ? `The bank does not offer the ${value} grant.`
        : `The bank does not accept ${value} client authentication at its token endpoint.`,
    cause:
      `Its discovery document (${discovery.issuer}/.well-known/openid-configuration) ` +
      `${present ? `lists ${member} ${JSON.stringify(list)}` : `has no ${member} (the OpenID default is ${JSON.stringify(list)})`}, without "${value}"; the ` +
      `console does not send what the bank does not advertise.`,
    fix:
      what === 'grant'
        ? value === 'refresh_token'
          ? "Without refresh tokens, get a new access token by sending the PSU to authorise again (re-run the flow's " +
            'authorisation).'
          : `Use a grant the bank lists in ${member}.`
        : `Register the client with a method the bank lists in ${member} (${list.join(', ') || 'none'}).`,
    details: { member, value },
  })
}

/**
 * POSTs to the token endpoint with the client's authentication: private_key_jwt, client_secret_basic, or
 * tls_client_auth (RFC 8705: the client id in the form, the client proven by the transport certificate of
 * the mutual TLS connection), the last only where discovery advertises it.
 */
export async function tokenRequest(
  ctx: FlowContext,
  discovery: Discovery,
  params: Record<string, string>,
  label: string,
): Promise<FlowResponse> {
  const form = new URLSearchParams(params)
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  }
  const { client } = ctx
  if (params.grant_type) requireAdvertisedWhenListed(discovery, params.grant_type)
  if (client.authMethod === 'client_secret_basic') {
    headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.secret ?? '')}`).toString('base64')}`
  } else if (client.authMethod === 'tls_client_auth') {
    requireAdvertised(discovery, 'auth', 'tls_client_auth')
    form.set('client_id', client.clientId)
  } else {
    form.set('client_id', client.clientId)
    form.set('client_assertion_type', 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer')
    form.set('client_assertion', await ctx.signer.clientAssertion(client.clientId, discovery.token_endpoint))
  }
  return ctx.http.send({ method: 'POST', url: discovery.token_endpoint, headers, body: form.toString(), label })
}

/**
 * The grants the flows always used (authorization_code, client_credentials) are sent whenever discovery is
 * silent (many banks leave grant_types_supported out); a list that leaves one out is the bank's word.
 */
function requireAdvertisedWhenListed(discovery: Discovery, grant: string): void {
  if (grant === 'refresh_token' || Array.isArray(discovery.grant_types_supported))
    requireAdvertised(discovery, 'grant', grant)
}

/** A successful token response (RFC 6749 section 5.1, OpenID Connect's `id_token`). */
interface TokenResponse {
  access_token: string
  token_type: string
  expires_in?: number
  scope?: string
  id_token?: string
  refresh_token?: string
}

/** What a token response must hold for the console to use it (RFC 6749 section 5.1). */
const TOKEN_ANSWER = answerShape<TokenResponse>('a token response', {
  type: 'object',
  required: ['access_token', 'token_type'],
  properties: {
    access_token: { type: 'string', minLength: 1 },
    token_type: { type: 'string', minLength: 1 },
    expires_in: { type: 'number' },
    scope: { type: 'string' },
    id_token: { type: 'string', minLength: 1 },
    refresh_token: { type: 'string', minLength: 1 },
  },
})

/** Reads a successful token response, or throws the bank's error explained. `what`: "The … failed". */
export function readTokens(res: FlowResponse, what: string): TokenSet {
  const j = readBankAnswer(res, {
    what: what.replace(/ failed$/, ''),
    status: 200,
    shape: TOKEN_ANSWER,
    fix:
      'Check the client id and its authentication (the signing key and kid for private_key_jwt, the secret for client_secret_basic), and that the ' +
      'transport certificate is the one the client registered with.',
  })
  return {
    accessToken: j.access_token,
    tokenType: j.token_type,
    expiresIn: j.expires_in,
    scope: j.scope,
    idToken: j.id_token,
    refreshToken: j.refresh_token,
  }
}

export const CLIENT_CREDENTIALS_STEP = stepKey<TokenSet>('client-credentials')

/** Step: a client-credentials token for `scope` (used first, to create the consent). */
export function clientCredentialsStep(scope: 'accounts' | 'payments'): StepDefinition<FlowContext, TokenSet> {
  return {
    id: CLIENT_CREDENTIALS_STEP,
    title: 'Client-credentials token',
    explanation: `Gets an access token for the client itself (scope ${scope}), over mutual TLS, to create the consent.`,
    requires: [DISCOVERY_STEP],
    async run(ctx, scope_) {
      const res = await tokenRequest(
        ctx,
        scope_.output(DISCOVERY_STEP),
        { grant_type: 'client_credentials', scope },
        `token (client_credentials ${scope})`,
      )
      scope_.exchange(res.exchangeId)
      const tokens = readTokens(res, 'The client-credentials token request failed')
      return {
        output: tokens,
        summary: `token for scope "${tokens.scope ?? scope}", ${tokens.expiresIn ?? '?'} s`,
        checks: [
          {
            name: 'token type',
            pass: tokens.tokenType?.toLowerCase() === 'bearer',
            expected: 'Bearer',
            actual: String(tokens.tokenType),
          },
          {
            name: 'scope granted',
            pass: !tokens.scope || tokens.scope.split(' ').includes(scope),
            expected: scope,
            actual: String(tokens.scope ?? '(not returned)'),
            hint: `Register the client with the scope "${scope}" (its software statement needs the ${scope === 'accounts' ? 'AISP' : 'PISP'} role).`,
          },
        ],
      }
    },
  }
}

/**
 * The refresh_token grant (RFC 6749 section 6): a new access token for the consent the PSU authorised,
 * without the PSU, where discovery advertises the grant. The bank may rotate the refresh token; the one
 * sent is kept when it does not.
 */
export async function refreshTokens(
  ctx: FlowContext,
  discovery: Discovery,
  current: TokenSet,
): Promise<{ tokens: TokenSet; exchangeId: string }> {
  requireAdvertised(discovery, 'grant', 'refresh_token')
  if (!current.refreshToken) {
    throw new AppError('INVALID_INPUT', {
      what: 'This flow holds no refresh token.',
      cause:
        "The bank's answer to the code exchange carried no refresh_token, although its discovery document lists the grant.",
      fix: 'Ask the bank when it issues refresh tokens (some do for AIS consents only), or authorise again for a new access token.',
    })
  }
  const res = await tokenRequest(
    ctx,
    discovery,
    { grant_type: 'refresh_token', refresh_token: current.refreshToken },
    'token (refresh_token)',
  )
  const tokens = readTokens(res, 'The refresh_token grant failed')
  return {
    tokens: { ...tokens, refreshToken: tokens.refreshToken ?? current.refreshToken },
    exchangeId: res.exchangeId,
  }
}
