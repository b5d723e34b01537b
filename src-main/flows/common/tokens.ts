import type { FlowContext, FlowResponse } from '../flow-context.ts'
import type { StepDefinition } from '../step-machine.ts'
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

/** POSTs to the token endpoint with the client's authentication: private_key_jwt or client_secret_basic. */
export async function tokenRequest(ctx: FlowContext, discovery: Discovery, params: Record<string, string>, label: string): Promise<FlowResponse> {
  const form = new URLSearchParams(params)
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }
  const { client } = ctx
  if (client.authMethod === 'client_secret_basic') {
    headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.secret ?? '')}`).toString('base64')}`
  } else {
    form.set('client_id', client.clientId)
    form.set('client_assertion_type', 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer')
    form.set('client_assertion', await ctx.signer.clientAssertion(client.clientId, discovery.token_endpoint))
  }
  return ctx.http.send({ method: 'POST', url: discovery.token_endpoint, headers, body: form.toString(), label })
}

/** What a token response must hold for the console to use it (RFC 6749 section 5.1). */
const TOKEN_ANSWER = answerShape('a token response', {
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
    fix: 'Check the client id and its authentication (the signing key and kid for private_key_jwt, the secret for client_secret_basic), and that the transport certificate is the one the client registered with.',
  })
  return { accessToken: j.access_token, tokenType: j.token_type, expiresIn: j.expires_in, scope: j.scope, idToken: j.id_token, refreshToken: j.refresh_token }
}

export const CLIENT_CREDENTIALS_STEP = 'client-credentials'

/** Step: a client-credentials token for `scope` (used first, to create the consent). */
export function clientCredentialsStep(scope: 'accounts' | 'payments'): StepDefinition<FlowContext> {
  return {
    id: CLIENT_CREDENTIALS_STEP,
    title: 'Client-credentials token',
    explanation: `Gets an access token for the client itself (scope ${scope}), over mutual TLS, to create the consent.`,
    requires: [DISCOVERY_STEP],
    async run(ctx, scope_) {
      const res = await tokenRequest(ctx, scope_.output<Discovery>(DISCOVERY_STEP), { grant_type: 'client_credentials', scope }, `token (client_credentials ${scope})`)
      scope_.exchange(res.exchangeId)
      const tokens = readTokens(res, 'The client-credentials token request failed')
      return {
        output: tokens,
        summary: `token for scope "${tokens.scope ?? scope}", ${tokens.expiresIn ?? '?'} s`,
        checks: [
          { name: 'token type', pass: tokens.tokenType?.toLowerCase() === 'bearer', expected: 'Bearer', actual: String(tokens.tokenType) },
          { name: 'scope granted', pass: !tokens.scope || tokens.scope.split(' ').includes(scope), expected: scope, actual: String(tokens.scope ?? '(not returned)'), hint: `Register the client with the scope "${scope}" (its software statement needs the ${scope === 'accounts' ? 'AISP' : 'PISP'} role).` },
        ],
      }
    },
  }
}
