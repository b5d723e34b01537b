/**
 * The bank-conformance check of one answer: which operation of the official OB v4.0 files it answers, its
 * status, required headers and body against that operation's schema, then the bank's rules
 * (`bank-rules.ts`). Synchronous and pure: it runs on the event loop for small bodies and in a worker
 * thread for large ones (`conformance-lens.ts`).
 */
import type { ConformanceDto, ConformanceViolationDto } from '../contract/exchange.ts'
import { interactionIdRule, jwsSignatureRule, oauthErrorRule, transactionsPageRules } from './bank-rules.ts'
import type { ObSchemas } from './ob-schemas.ts'
import { API_BASE_PATHS, OPENAPI_FILES, type ObApi } from './openapi-files.ts'

/** One answer to check, as the exchange log recorded it (headers as received; the body whole). */
export interface AnswerToCheck {
  method: string
  /** The request's URL as sent. */
  url: string
  /** The environment's `{base_url}` and `{auth_url}`. */
  baseUrl: string
  authUrl?: string
  status: number
  requestHeaders: Array<[string, string]>
  responseHeaders: Array<[string, string]>
  /** The whole response body (UTF-8 bytes or text); absent when there was none. */
  body?: Uint8Array | string
}

/** At most this many violations are reported for one answer. */
export const MAX_VIOLATIONS = 200

const header = (headers: Array<[string, string]>, name: string) => headers.find(([k]) => k.toLowerCase() === name)?.[1]

function pathAndQuery(url: string): { path: string } {
  try {
    return { path: new URL(url).pathname }
  } catch {
    return { path: url.split(/[?#]/)[0] ?? url }
  }
}

/** Which API (and the path after its base path) a URL is on, when it is under `{base_url}`. */
export function apiOf(url: string, baseUrl: string): { api: ObApi; path: string } | undefined {
  const base = baseUrl.replace(/\/+$/, '')
  if (!url.startsWith(`${base}/`)) return undefined
  const basePath = pathAndQuery(base).path.replace(/\/+$/, '')
  const path = pathAndQuery(url).path
  for (const api of ['ais', 'pis'] as const) {
    const prefix = `${basePath}${API_BASE_PATHS[api]}`
    if (path.startsWith(`${prefix}/`)) return { api, path: path.slice(prefix.length) }
  }
  return undefined
}

function bodyText(body: Uint8Array | string | undefined): string {
  if (body === undefined) return ''
  return typeof body === 'string' ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8')
}

function parse(text: string): { ok: true; json: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, json: JSON.parse(text) }
  } catch (err) {
    return { ok: false, error: (err as Error).message }
  }
}

const notChecked = (note: string): ConformanceDto => ({ checked: false, violations: [], note })

/** Checks one answer. `checked: false` (with a note) for answers the lens does not judge. */
export function checkAnswer(schemas: ObSchemas, a: AnswerToCheck): ConformanceDto {
  const at = apiOf(a.url, a.baseUrl)
  if (!at) {
    if (a.authUrl && a.url.startsWith(a.authUrl.replace(/\/+$/, '')) && (a.status === 400 || a.status === 401) && /json/i.test(header(a.responseHeaders, 'content-type') ?? '')) {
      const parsed = parse(bodyText(a.body))
      const violations = parsed.ok ? oauthErrorRule(parsed.json) : [{ path: '', rule: 'oauth.error-shape', message: `The OAuth error answer is not JSON: ${parsed.error}`, source: 'RFC 6749 §5.2' }]
      return { checked: true, operation: `${a.method.toUpperCase()} ${pathAndQuery(a.url).path} (authorisation server, OAuth error)`, violations }
    }
    return notChecked('Not an answer of the bank\'s AIS or PIS API: the lens checks {base_url}/open-banking/v4.0/aisp and /pisp, and OAuth error answers of {auth_url}.')
  }
  const file = OPENAPI_FILES[at.api]
  const op = schemas.match(at.api, a.method, at.path)
  if (!op) return notChecked(`${a.method.toUpperCase()} ${at.path} is not an operation of ${file}: nothing to check it against.`)
  const operation = `${a.method.toUpperCase()} ${op.template} (${file})`
  const where = `${file}#/paths/${op.template}/${op.method}/responses`
  const res = op.operation.responses[String(a.status)]
  if (!res) {
    return { checked: true, operation, violations: [{ path: '', rule: 'schema.status', message: `${a.status} is not a status of ${a.method.toUpperCase()} ${op.template}; it answers ${Object.keys(op.operation.responses).join(', ')}`, value: String(a.status), source: where }] }
  }
  const violations: ConformanceViolationDto[] = []
  for (const h of res.headers) {
    if (h.required && header(a.responseHeaders, h.name.toLowerCase()) === undefined) {
      violations.push({ path: `header ${h.name}`, rule: 'schema.header', message: `The required response header ${h.name} is missing`, source: `${where}/${a.status}/headers` })
    }
  }
  violations.push(...interactionIdRule(a.requestHeaders, a.responseHeaders))
  const text = bodyText(a.body)
  if (at.api === 'pis' && text.length > 0) violations.push(...jwsSignatureRule(a.responseHeaders))
  const schemaName = res.schema?.$ref?.replace('#/$defs/', '')
  if (schemaName) {
    const type = header(a.responseHeaders, 'content-type') ?? ''
    if (!text.length) {
      violations.push({ path: '', rule: 'schema.body', message: `The answer has no body; ${a.status} of this operation carries ${schemaName}`, source: `${where}/${a.status}` })
    } else if (!/json/i.test(type)) {
      violations.push({ path: 'header content-type', rule: 'schema.content-type', message: `The body is not JSON; ${a.status} of this operation carries ${schemaName} as ${(res.contentTypes ?? ['application/json']).join(' or ')}`, value: type || '(none)', source: `${where}/${a.status}` })
    } else {
      const parsed = parse(text)
      if (!parsed.ok) {
        violations.push({ path: '', rule: 'schema.json', message: `The body is not valid JSON: ${parsed.error}`, source: `${where}/${a.status}` })
      } else {
        violations.push(...schemas.check(at.api, schemaName, parsed.json, MAX_VIOLATIONS))
        if (at.api === 'ais' && op.template === '/accounts/{AccountId}/transactions' && a.status === 200) violations.push(...transactionsPageRules(parsed.json, a.url, a.baseUrl))
      }
    }
  }
  return { checked: true, operation, violations: violations.slice(0, MAX_VIOLATIONS) }
}
