import type { EnvironmentDto } from '../contract/environments.ts'
import { AppError } from '../core/app-error.ts'
import { redactText } from '../core/redact-text.ts'
import { secretKindOfName } from '../core/secret-names.ts'
import { unexpectedAnswer } from '../flows/common/failures.ts'
import type { FlowHttp } from '../flows/flow-context.ts'
import { jsonObject } from '../http/json-body.ts'

/** A Postman environment: a name and key/value rows. */
export interface PostmanEnvironment {
  name?: string
  values: Array<{ key: string; value: string; enabled?: boolean; type?: string }>
  [k: string]: unknown
}

function o3Base(env: EnvironmentDto): string {
  if (!env.apiPaths.o3)
    throw new AppError('INVALID_INPUT', {
      what: `${env.name} has no o3 helper path.`,
      cause: 'The o3 helpers (auth-code-url, Postman environment) exist in the sandboxes only.',
      fix:
        env.kind === 'production' ? 'Production has no o3 helpers.' : "Set the environment's o3 path (e.g. /o3/v1.0).",
    })
  return `${env.baseUrl}${env.apiPaths.o3}`
}

/** GET {base_url}/o3/v1.0/auth-code-url/{ConsentId}: the sandbox builds the authorisation URL of a consent. */
export async function o3AuthCodeUrl(
  env: EnvironmentDto,
  http: FlowHttp,
  accessToken: string,
  consentId: string,
  scope?: string,
): Promise<{ url: string; response: Record<string, unknown>; exchangeId: string }> {
  const q = new URLSearchParams({ ...(scope ? { scope } : {}), alg: 'none' })
  const res = await http.send({
    method: 'GET',
    url: `${o3Base(env)}/auth-code-url/${encodeURIComponent(consentId)}?${q}`,
    headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
    label: 'o3 auth-code-url',
  })
  const { requestObject: _omit, ...rest } = jsonObject(res.json)
  if (res.status !== 200 || typeof rest.url !== 'string')
    throw unexpectedAnswer(
      res,
      'The auth-code-url helper refused',
      'The consent must await authorisation (AWAU), belong to this client, and the client must have the permissive sandbox profile.',
    )
  return { url: rest.url, response: rest, exchangeId: res.exchangeId }
}

/** GET {base_url}/o3/v1.0/postman/environment?client_id=…; secrets in it are masked. */
export async function o3PostmanEnvironment(
  env: EnvironmentDto,
  http: FlowHttp,
  accessToken: string,
  clientId: string,
): Promise<{ environment: PostmanEnvironment; exchangeId: string }> {
  const res = await http.send({
    method: 'GET',
    url: `${o3Base(env)}/postman/environment?client_id=${encodeURIComponent(clientId)}`,
    headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
    label: 'o3 Postman environment',
  })
  if (res.status !== 200 || !Array.isArray(jsonObject(res.json).values))
    throw unexpectedAnswer(
      res,
      'The Postman environment download failed',
      'Give the id of a client of your organisation.',
    )
  return { environment: maskPostman(res.json as PostmanEnvironment), exchangeId: res.exchangeId }
}

/**
 * The environment with its secrets masked before it leaves the main side: a value under a secret name of the
 * one redaction rule set (`client_secret`, `access_token`, `password`, `private_key`...; `core/secret-names.ts`),
 * or a value holding a secret by content (a private key, a `Bearer` credential). Addresses stay as they are,
 * whatever their name (`tokenEndpoint` is a URL, not a token).
 */
export function maskPostman(p: PostmanEnvironment): PostmanEnvironment {
  return {
    ...p,
    values: p.values.map((v) => {
      if (!v.value || typeof v.value !== 'string') return v
      if (secretKindOfName(v.key)) return { ...v, value: '(masked)' }
      const shown = redactText(v.value)
      return shown === v.value ? v : { ...v, value: shown }
    }),
  }
}

/** What a Postman environment says of an environment: addresses and the client (its secret, if any, kept aside). */
export function readPostmanEnvironment(
  p: unknown,
  source: string,
): {
  baseUrl: string
  authUrl: string
  clientId?: string
  clientSecret?: string
  name?: string
  aisPath?: string
  pisPath?: string
} {
  const env = p as PostmanEnvironment
  if (!env || typeof env !== 'object' || !Array.isArray(env.values))
    throw new AppError('INVALID_INPUT', {
      what: `${source} is not a Postman environment.`,
      cause: 'It has no "values" array of {key, value} rows.',
      fix: "Export the environment from Postman (or download it from the sandbox's o3 helper) and give that file.",
    })
  const get = (...keys: string[]) =>
    env.values.find((v) => keys.includes(v.key) && typeof v.value === 'string' && v.value)?.value
  const baseUrl = get('base_url', 'rs')
  const authUrl = get('auth_url', 'issuer')
  if (!baseUrl || !authUrl)
    throw new AppError('INVALID_INPUT', {
      what: `${source} does not name the bank's addresses.`,
      cause: 'It needs base_url (or rs) and auth_url (or issuer).',
      fix: 'Add them, or create the environment by hand.',
    })
  const path = (full: string | undefined) =>
    full && full.startsWith(baseUrl) ? full.slice(baseUrl.length) || undefined : undefined
  const clientId = get('client_id')
  const clientSecret = get('client_secret')
  const aisPath = path(get('aisBasePath'))
  const pisPath = path(get('pisBasePath'))
  return {
    baseUrl,
    authUrl,
    ...(clientId ? { clientId } : {}),
    ...(clientSecret && clientSecret !== '(masked)' ? { clientSecret } : {}),
    ...(env.name ? { name: env.name } : {}),
    ...(aisPath ? { aisPath } : {}),
    ...(pisPath ? { pisPath } : {}),
  }
}
