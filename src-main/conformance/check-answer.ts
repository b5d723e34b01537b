/**
 * The bank-conformance check of one answer: which operation of the official OB v4.0 files it answers, its
 * status, required headers and body against that operation's schema, then the bank's rules
 * (`bank-rules.ts`). Synchronous and pure: it runs on the event loop for small bodies and in a worker
 * thread for large ones (`conformance-lens.ts`).
 */
import type { ConformanceDto, ConformanceViolationDto } from '../contract/exchange.ts'
import {
  encodingRules,
  interactionIdRule,
  jwsSignatureRule,
  linksRules,
  oauthErrorRule,
  transactionsPageRules,
} from './bank-rules.ts'
import type { ObSchemas } from './ob-schemas.ts'
import { API_BASE_PATHS, OPENAPI_FILES, type ObApi } from './openapi-files.ts'
import { headerValue } from '../core/header-lookup.ts'

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

const header = headerValue

/** The path of a URL, without its query and fragment. */
function pathOf(url: string): string {
  try {
    return new URL(url).pathname
  } catch {
    return url.split(/[?#]/)[0] ?? url
  }
}

/** Which API (and the path after its base path) a URL is on, when it is under `{base_url}`. */
export function apiOf(url: string, baseUrl: string): { api: ObApi; path: string } | undefined {
  const base = baseUrl.replace(/\/+$/, '')
  if (!url.startsWith(`${base}/`)) return undefined
  const basePath = pathOf(base).replace(/\/+$/, '')
  const path = pathOf(url)
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

const violation = (
  path: string,
  rule: string,
  message: string,
  source: string,
  value?: string,
): ConformanceViolationDto => ({ path, rule, message, ...(value !== undefined ? { value } : {}), source })

const NOT_JUDGED =
  "Not an answer of the bank's AIS or PIS API: the lens checks {base_url}/open-banking/v4.0/aisp and /pisp, " +
  'and OAuth error answers of {auth_url}.'

/** An OAuth error answer of `{auth_url}` (400 or 401, JSON), or undefined for any other answer there. */
function checkOAuthError(a: AnswerToCheck): ConformanceDto | undefined {
  const isError = a.status === 400 || a.status === 401
  const isJson = /json/i.test(header(a.responseHeaders, 'content-type') ?? '')
  if (!a.authUrl || !a.url.startsWith(a.authUrl.replace(/\/+$/, '')) || !isError || !isJson) return undefined
  const parsed = parse(bodyText(a.body))
  const notJson = () => [
    violation(
      '',
      'oauth.error-shape',
      `The OAuth error answer is not JSON: ${(parsed as { error: string }).error}`,
      'RFC 6749 §5.2',
    ),
  ]
  const violations = parsed.ok ? oauthErrorRule(parsed.json) : notJson()
  return {
    checked: true,
    operation: `${a.method.toUpperCase()} ${pathOf(a.url)} (authorisation server, OAuth error)`,
    violations,
  }
}

/** Checks one answer. `checked: false` (with a note) for answers the lens does not judge. */
export function checkAnswer(schemas: ObSchemas, a: AnswerToCheck): ConformanceDto {
  const at = apiOf(a.url, a.baseUrl)
  if (!at) return checkOAuthError(a) ?? notChecked(NOT_JUDGED)
  const file = OPENAPI_FILES[at.api]
  const op = schemas.match(at.api, a.method, at.path)
  if (!op)
    return notChecked(
      `${a.method.toUpperCase()} ${at.path} is not an operation of ${file}: nothing to check it against.`,
    )
  const operation = `${a.method.toUpperCase()} ${op.template} (${file})`
  const where = `${file}#/paths/${op.template}/${op.method}/responses`
  const res = op.operation.responses[String(a.status)]
  if (!res) {
    const message = `${a.status} is not a status of ${a.method.toUpperCase()} ${op.template}; it answers ${Object.keys(op.operation.responses).join(', ')}`
    return { checked: true, operation, violations: [violation('', 'schema.status', message, where, String(a.status))] }
  }
  const violations: ConformanceViolationDto[] = []
  for (const h of res.headers) {
    if (h.required && header(a.responseHeaders, h.name.toLowerCase()) === undefined) {
      violations.push(
        violation(
          `header ${h.name}`,
          'schema.header',
          `The required response header ${h.name} is missing`,
          `${where}/${a.status}/headers`,
        ),
      )
    }
  }
  violations.push(...interactionIdRule(a.requestHeaders, a.responseHeaders))
  violations.push(...encodingRules(a.responseHeaders, a.body))
  const text = bodyText(a.body)
  if (at.api === 'pis' && text.length > 0) violations.push(...jwsSignatureRule(a.responseHeaders))
  const schemaName = res.schema?.$ref?.replace('#/$defs/', '')
  if (schemaName) {
    const type = header(a.responseHeaders, 'content-type') ?? ''
    const source = `${where}/${a.status}`
    if (!text.length) {
      violations.push(
        violation(
          '',
          'schema.body',
          `The answer has no body; ${a.status} of this operation carries ${schemaName}`,
          source,
        ),
      )
    } else if (!/json/i.test(type)) {
      const message = `The body is not JSON; ${a.status} of this operation carries ${schemaName} as ${(res.contentTypes ?? ['application/json']).join(' or ')}`
      violations.push(violation('header content-type', 'schema.content-type', message, source, type || '(none)'))
    } else {
      const parsed = parse(text)
      if (!parsed.ok) {
        violations.push(violation('', 'schema.json', `The body is not valid JSON: ${parsed.error}`, source))
      } else {
        violations.push(...schemas.check(at.api, schemaName, parsed.json, MAX_VIOLATIONS))
        if (a.status >= 200 && a.status < 300) violations.push(...linksRules(parsed.json, a.baseUrl))
        const isPage = at.api === 'ais' && op.template === '/accounts/{AccountId}/transactions' && a.status === 200
        if (isPage) violations.push(...transactionsPageRules(parsed.json, a.url))
      }
    }
  }
  return { checked: true, operation, violations: violations.slice(0, MAX_VIOLATIONS) }
}
