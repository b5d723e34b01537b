import { answerShape, readBankAnswer } from './bank-answer.ts'
import type { FlowContext, FlowHttp } from '../flow-context.ts'
import { stepKey, type StepDefinition } from '../step-machine.ts'

/** The parts of the OpenID discovery document the flows use. */
export interface Discovery {
  issuer: string
  authorization_endpoint: string
  token_endpoint: string
  jwks_uri: string
  registration_endpoint?: string
  response_types_supported?: string[]
  token_endpoint_auth_methods_supported?: string[]
  request_object_signing_alg_values_supported?: string[]
  id_token_signing_alg_values_supported?: string[]
  [key: string]: unknown
}

export const DISCOVERY_STEP = stepKey<Discovery>('discovery')

const URL_STRING = { type: 'string', minLength: 1 }
const STRINGS = { type: 'array', items: { type: 'string' } }
/** The members of the discovery document the flows read. */
const DISCOVERY_ANSWER = answerShape<Discovery>('an OpenID discovery document', {
  type: 'object',
  required: ['issuer', 'authorization_endpoint', 'token_endpoint', 'jwks_uri'],
  properties: {
    issuer: URL_STRING,
    authorization_endpoint: URL_STRING,
    token_endpoint: URL_STRING,
    jwks_uri: URL_STRING,
    registration_endpoint: URL_STRING,
    response_types_supported: STRINGS,
    token_endpoint_auth_methods_supported: STRINGS,
    request_object_signing_alg_values_supported: STRINGS,
    id_token_signing_alg_values_supported: STRINGS,
  },
})

/** Where a bank publishes its discovery document. */
export const discoveryUrl = (authUrl: string): string => `${authUrl}/.well-known/openid-configuration`

const discoveryFix = (authUrl: string) =>
  `Check the environment's auth URL (${authUrl}): discovery lives at ${discoveryUrl(authUrl)}.`

/**
 * GET `{auth_url}/.well-known/openid-configuration` and read it: status 200, JSON, the members the console
 * reads (BANK_ANSWER_INVALID or the bank's error otherwise, each naming the fix). The one place the console
 * fetches discovery: the flows' step, the discovery view, the registration's pre-flight, the JWT checks.
 * `clientCertificate: false` sends none (discovery is public; the views need no identity); `onExchange` hears
 * the exchange's id before the answer is read.
 */
export async function fetchDiscovery(
  http: FlowHttp,
  authUrl: string,
  options: { label?: string; clientCertificate?: false; onExchange?: (exchangeId: string) => void } = {},
): Promise<{ discovery: Discovery; url: string; exchangeId: string }> {
  const url = discoveryUrl(authUrl)
  const res = await http.send({
    method: 'GET',
    url,
    label: options.label ?? 'discovery',
    ...(options.clientCertificate === false ? { clientCertificate: false } : {}),
  })
  options.onExchange?.(res.exchangeId) // before reading: a step shows the exchange of a refused answer too
  const discovery = readBankAnswer(res, {
    what: `Reading the discovery document (GET ${url})`,
    status: 200,
    shape: DISCOVERY_ANSWER,
    fix: discoveryFix(authUrl),
  })
  return { discovery, url, exchangeId: res.exchangeId }
}

/** Step: GET `{auth_url}/.well-known/openid-configuration` and check it supports what the flows need. */
export function discoveryStep(): StepDefinition<FlowContext, Discovery> {
  return {
    id: DISCOVERY_STEP,
    title: 'Discovery',
    explanation:
      "Reads the bank's OpenID discovery document: where the authorisation, token and JWKS endpoints are and what they support.",
    async run(ctx, scope) {
      const { discovery: d } = await fetchDiscovery(ctx.http, ctx.environment.authUrl, {
        onExchange: (id) => scope.exchange(id),
      })
      const has = (list: unknown, v: string) => Array.isArray(list) && list.includes(v)
      return {
        output: d,
        summary: `issuer ${d.issuer}`,
        checks: [
          {
            name: 'issuer is {auth_url}',
            pass: d.issuer === ctx.environment.authUrl,
            expected: ctx.environment.authUrl,
            actual: String(d.issuer),
            hint: "Set the environment's auth URL to the issuer the bank publishes.",
          },
          {
            name: 'token endpoint',
            pass: typeof d.token_endpoint === 'string',
            expected: 'a URL',
            actual: String(d.token_endpoint ?? 'missing'),
          },
          {
            name: 'authorisation endpoint',
            pass: typeof d.authorization_endpoint === 'string',
            expected: 'a URL',
            actual: String(d.authorization_endpoint ?? 'missing'),
          },
          {
            name: 'jwks_uri',
            pass: typeof d.jwks_uri === 'string',
            expected: 'a URL',
            actual: String(d.jwks_uri ?? 'missing'),
          },
          {
            name: 'hybrid flow supported',
            pass: has(d.response_types_supported, 'code id_token'),
            expected: 'code id_token',
            actual: JSON.stringify(d.response_types_supported ?? []),
          },
          {
            name: 'PS256 ID tokens',
            pass: has(d.id_token_signing_alg_values_supported, 'PS256'),
            expected: 'PS256',
            actual: JSON.stringify(d.id_token_signing_alg_values_supported ?? []),
          },
        ],
      }
    },
  }
}
