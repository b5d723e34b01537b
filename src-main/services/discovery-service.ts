import type { CheckResult } from '../contract/checks.ts'
import type { DiscoveryViewDto } from '../contract/consents.ts'
import type { EnvironmentDto } from '../contract/environments.ts'
import type { FlowHttp } from '../flows/flow-context.ts'
import { fetchDiscovery } from '../flows/common/discovery.ts'

const list = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [])

/** The registered values each of which must be one the bank's discovery advertises: claim, metadata list, fix. */
const REGISTERED_ONE_OF: ReadonlyArray<[claim: string, advertised: string, fix: string]> = [
  [
    'token_endpoint_auth_method',
    'token_endpoint_auth_methods_supported',
    'Register with a method the bank advertises.',
  ],
  [
    'token_endpoint_auth_signing_alg',
    'token_endpoint_auth_signing_alg_values_supported',
    'Register with an algorithm the bank advertises.',
  ],
  [
    'request_object_signing_alg',
    'request_object_signing_alg_values_supported',
    'Register with an algorithm the bank advertises.',
  ],
  [
    'id_token_signed_response_alg',
    'id_token_signing_alg_values_supported',
    'Register with an algorithm the bank advertises.',
  ],
]

/**
 * The capability check: what the environment and the client's registration use against what discovery
 * advertises, one check per item, every mismatch named. `registration` is the registration response (or
 * the claims about to be sent).
 */
export function capabilityChecks(
  doc: Record<string, unknown>,
  env: EnvironmentDto,
  registration?: Record<string, unknown>,
): CheckResult[] {
  const checks: CheckResult[] = []
  const supports = (name: string, field: string, wanted: string | undefined, hint: string) => {
    if (!wanted) return
    const advertised = list(doc[field])
    if (!(field in doc)) {
      checks.push({ name, pass: true, expected: wanted, actual: `${field} not advertised (cannot be checked)` })
      return
    }
    checks.push({
      name,
      pass: advertised.includes(wanted),
      expected: `${wanted} in ${field}`,
      actual: JSON.stringify(advertised),
      hint,
    })
  }
  checks.push({
    name: "issuer is the environment's auth URL",
    pass: doc.issuer === env.authUrl,
    expected: env.authUrl,
    actual: String(doc.issuer),
    hint: "Set the environment's auth URL to the issuer the bank publishes.",
  })
  for (const k of ['authorization_endpoint', 'token_endpoint', 'jwks_uri'] as const) {
    checks.push({
      name: k,
      pass: typeof doc[k] === 'string',
      expected: 'a URL',
      actual: String(doc[k] ?? 'missing'),
      hint: "The bank's discovery document lacks it: ask the bank.",
    })
  }
  for (const m of env.allowedAuthMethods)
    supports(
      `environment auth method ${m}`,
      'token_endpoint_auth_methods_supported',
      m,
      `The bank does not advertise ${m}; remove it from the environment's allowed methods.`,
    )
  supports(
    'hybrid flow (code id_token)',
    'response_types_supported',
    'code id_token',
    'The flows use the hybrid flow; the bank does not advertise it.',
  )
  supports('PS256 ID tokens', 'id_token_signing_alg_values_supported', 'PS256', 'FAPI needs PS256 ID tokens.')
  if (registration) {
    for (const [claim, advertised, fix] of REGISTERED_ONE_OF) {
      const value = registration[claim]
      supports(`registered ${claim}`, advertised, typeof value === 'string' ? value : undefined, fix)
    }
    for (const g of list(registration.grant_types))
      supports(`registered grant type ${g}`, 'grant_types_supported', g, 'Remove the grant type from the registration.')
    for (const r of list(registration.response_types))
      supports(
        `registered response type ${r}`,
        'response_types_supported',
        r,
        'Remove the response type from the registration.',
      )
    const scope = typeof registration.scope === 'string' ? registration.scope.split(' ').filter(Boolean) : []
    for (const s of scope)
      supports(`registered scope ${s}`, 'scopes_supported', s, 'Remove the scope from the registration.')
  }
  return checks
}

/** Reads `{auth_url}/.well-known/openid-configuration` and lays it out for reading. */
export async function discoveryView(
  env: EnvironmentDto,
  http: FlowHttp,
  registration?: Record<string, unknown>,
): Promise<DiscoveryViewDto> {
  const { discovery: doc, url, exchangeId } = await fetchDiscovery(http, env.authUrl, { clientCertificate: false })
  const endpoints: Record<string, string> = {}
  const algorithms: Record<string, string[]> = {}
  for (const [k, v] of Object.entries(doc)) {
    if ((k.endsWith('_endpoint') || k === 'jwks_uri') && typeof v === 'string') endpoints[k] = v
    if (k.endsWith('_alg_values_supported') || k.endsWith('_enc_values_supported')) algorithms[k] = list(v)
  }
  return {
    url,
    issuer: String(doc.issuer ?? ''),
    endpoints,
    algorithms,
    tokenEndpointAuthMethods: list(doc.token_endpoint_auth_methods_supported),
    grantTypes: list(doc.grant_types_supported),
    responseTypes: list(doc.response_types_supported),
    scopes: list(doc.scopes_supported),
    claims: list(doc.claims_supported),
    checks: capabilityChecks(doc, env, registration),
    document: doc,
    exchangeId,
  }
}
