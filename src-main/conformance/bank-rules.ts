/**
 * The bank's own rules for its answers, beyond the official schemas: each one quoted from
 * `../shared/spec/bank-interface-spec.md` (the bank's interface spec) or, where the bank's spec defers to
 * the Open Banking standard, from its summary `../shared/spec/obie-v4-reference.md`.
 */
import { isUtf8 } from 'node:buffer'
import type { ConformanceViolationDto } from '../contract/exchange.ts'
import { describeValue } from '../plumbing/json-pointer.ts'
import { headerValue, headerValues } from '../core/header-lookup.ts'

/** The sources the rules cite, as a violation's `source` names them. */
export const RULE_SOURCES = {
  pageSize:
    'bank-interface-spec.md §8 Limits: "Transactions page size | GET /accounts/{AccountId}/transactions | 100 transactions per page" (and §4.2)',
  linksNext:
    'obie-v4-reference.md §1.4 Links, Meta, paging: "Next is required when another page exists (no Next = last page)"',
  totalPages:
    'bank-interface-spec.md §4.2: transactions are "Paginated"; obie-v4-reference.md §1.4: "Meta{TotalPages int32, ...}"',
  linksOrigin:
    'obie-v4-reference.md §1.4: "Links{Self*, First, Prev, Next, Last} (absolute URIs)"; ' +
    'bank-interface-spec.md §4: paths are "relative to {base_url}"',
  links:
    'obie-v4-reference.md §1.4: "Links{Self*, First, Prev, Next, Last} (absolute URIs) ... The docs say both are mandatory"',
  utf8: 'RFC 8259 §8.1: "JSON text exchanged between systems that are not part of a closed ecosystem MUST be encoded using UTF-8"',
  singleHeader:
    'RFC 9110 §5.3: a sender must not send a field line more than once unless its value is a comma-separated list; Content-Type is not',
  interactionId:
    'obie-v4-reference.md §2.1: x-fapi-interaction-id, the ASPSP "must echo it (or generate one) on every response"',
  jwsSignature:
    'bank-interface-spec.md §4.3 PIS ("Requires header x-jws-signature"); ' +
    'obie-v4-reference.md §2.1 response headers: "x-jws-signature where signing applies, including error bodies"',
  oauthError:
    'RFC 6749 §5.2 (the token endpoint of bank-interface-spec.md §4.5): an error response carries "error", a string, ' +
    'and may carry "error_description"',
} as const

/** The bank's transactions page size (bank-interface-spec.md §8). */
export const PAGE_SIZE = 100

type Source = keyof typeof RULE_SOURCES

/** One violation of a bank rule; `value` left out when nothing was found. */
function violation(
  rule: string,
  path: string,
  source: Source,
  message: string,
  value?: string,
): ConformanceViolationDto {
  return { path, rule, message, ...(value !== undefined ? { value } : {}), source: RULE_SOURCES[source] }
}

const header = headerValue

/** The page a request asked for: its `page` query parameter, else 1. */
function pageOf(url: string): number {
  const q = url.indexOf('?')
  const page = q < 0 ? null : new URLSearchParams(url.slice(q + 1).split('#')[0]).get('page')
  return page && /^\d{1,9}$/.test(page) ? Number(page) : 1
}

/** A transactions page (`GET /accounts/{AccountId}/transactions`, 200): page size, `Meta.TotalPages`, `Links.Next` (the origin of every `Links` member is `linksRules`'). */
export function transactionsPageRules(body: unknown, requestUrl: string): ConformanceViolationDto[] {
  const out: ConformanceViolationDto[] = []
  const b = (body ?? {}) as {
    Data?: { Transaction?: unknown }
    Links?: Record<string, unknown>
    Meta?: Record<string, unknown>
  }
  const list = Array.isArray(b.Data?.Transaction) ? b.Data.Transaction : undefined
  const links = b.Links && typeof b.Links === 'object' ? b.Links : {}
  const next = links.Next
  const totalPages = b.Meta?.TotalPages
  const page = pageOf(requestUrl)
  if (list && list.length > PAGE_SIZE) {
    const message = `The page holds ${list.length} transactions; the bank's page size is ${PAGE_SIZE}`
    out.push(violation('bank.page-size', 'Data.Transaction', 'pageSize', message, describeValue(list)))
  } else if (
    list &&
    next !== undefined &&
    !(typeof totalPages === 'number' && page >= totalPages) &&
    list.length < PAGE_SIZE
  ) {
    const message = `A page with a next page holds ${list.length} transactions; every page but the last holds ${PAGE_SIZE}`
    out.push(violation('bank.page-size', 'Data.Transaction', 'pageSize', message, describeValue(list)))
  }
  if (totalPages === undefined) {
    out.push(
      violation(
        'bank.total-pages',
        'Meta.TotalPages',
        'totalPages',
        'Meta.TotalPages is missing; a paginated list says how many pages it has',
      ),
    )
  } else if (typeof totalPages !== 'number' || !Number.isInteger(totalPages) || totalPages < 1) {
    const message = 'Meta.TotalPages must be a whole number of pages, at least 1'
    out.push(violation('bank.total-pages', 'Meta.TotalPages', 'totalPages', message, describeValue(totalPages)))
  } else if (page > totalPages) {
    const message = `Page ${page} was answered, but Meta.TotalPages says there are ${totalPages}`
    out.push(violation('bank.total-pages', 'Meta.TotalPages', 'totalPages', message, String(totalPages)))
  }
  if (typeof totalPages === 'number' && Number.isInteger(totalPages)) {
    if (next === undefined && page < totalPages) {
      const message = `Links.Next is missing on page ${page} of ${totalPages}: a client stops here and misses ${totalPages - page} page(s)`
      out.push(violation('bank.links-next', 'Links.Next', 'linksNext', message))
    } else if (next !== undefined && page >= totalPages) {
      const message = `Links.Next is present on the last page (${page} of ${totalPages})`
      out.push(violation('bank.links-next', 'Links.Next', 'linksNext', message, describeValue(next)))
    }
  }
  return out
}

/**
 * A v4.0 answer with `Data` (2xx) carries `Links` with `Self`, and every `Links` member is an absolute URI on
 * `{base_url}`: on every answer, not only the transactions pages.
 */
export function linksRules(body: unknown, baseUrl: string): ConformanceViolationDto[] {
  if (!body || typeof body !== 'object' || Array.isArray(body) || !('Data' in body)) return []
  const links = (body as { Links?: unknown }).Links
  if (links === undefined || links === null || typeof links !== 'object' || Array.isArray(links)) {
    const message = 'The answer has Data but no Links object; every v4.0 answer links to itself (Links.Self)'
    return [violation('bank.links', 'Links', 'links', message, links === undefined ? undefined : describeValue(links))]
  }
  const out: ConformanceViolationDto[] = []
  if ((links as Record<string, unknown>).Self === undefined)
    out.push(violation('bank.links', 'Links.Self', 'links', 'Links.Self is missing; every v4.0 answer links to itself'))
  out.push(...linksOriginRules(links as Record<string, unknown>, baseUrl))
  return out
}

/**
 * The bytes of the answer as a client reads them: a body that is not UTF-8 (read, the bad bytes become
 * U+FFFD and the text silently changes), and a Content-Type sent more than once (which one the body is in
 * cannot be told).
 */
export function encodingRules(
  responseHeaders: Array<[string, string]>,
  body: Uint8Array | string | undefined,
): ConformanceViolationDto[] {
  const out: ConformanceViolationDto[] = []
  const types = headerValues(responseHeaders, 'content-type')
  if (types.length > 1) {
    const message = `Content-Type is sent ${types.length} times; a client cannot tell which one the body is in (most keep one and ignore the rest)`
    out.push(violation('bank.single-header', 'header content-type', 'singleHeader', message, types.join(' | ')))
  }
  if (body !== undefined && typeof body !== 'string') {
    const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength)
    if (!isUtf8(bytes)) {
      const at = firstInvalidUtf8(bytes)
      const message = `The body is not valid UTF-8 (byte 0x${bytes[at]?.toString(16).padStart(2, '0')} at offset ${at}); a client reads each bad byte as U+FFFD (the replacement character), so the text it gets is not the text the bank meant`
      out.push(violation('bank.utf8', '', 'utf8', message))
    }
  }
  return out
}

/**
 * The offset of the first byte that is not part of a valid UTF-8 sequence: where the decoded text has its first
 * U+FFFD that the bytes do not spell (EF BF BD is a real one).
 */
function firstInvalidUtf8(bytes: Buffer): number {
  const text = bytes.toString('utf8')
  let from = 0
  for (;;) {
    const i = text.indexOf('\uFFFD', from)
    if (i < 0) return 0
    const at = Buffer.byteLength(text.slice(0, i))
    if (!(bytes[at] === 0xef && bytes[at + 1] === 0xbf && bytes[at + 2] === 0xbd)) return at
    from = i + 1
  }
}

/** Every `Links` member is an absolute URI on the bank's `{base_url}`. */
export function linksOriginRules(links: Record<string, unknown>, baseUrl: string): ConformanceViolationDto[] {
  const out: ConformanceViolationDto[] = []
  let origin: string
  try {
    origin = new URL(baseUrl).origin
  } catch {
    return out
  }
  for (const [name, value] of Object.entries(links)) {
    if (typeof value !== 'string') continue
    let ok = false
    try {
      ok = new URL(value).origin === origin
    } catch {
      ok = false
    }
    const message = `Links.${name} is not an absolute URI on {base_url} (${origin})`
    if (!ok) out.push(violation('bank.links-origin', `Links.${name}`, 'linksOrigin', message, describeValue(value)))
  }
  return out
}

/** The answer echoes the request's `x-fapi-interaction-id` (the missing header is the schema's `header` rule). */
export function interactionIdRule(
  requestHeaders: Array<[string, string]>,
  responseHeaders: Array<[string, string]>,
): ConformanceViolationDto[] {
  const sent = header(requestHeaders, 'x-fapi-interaction-id')
  const got = header(responseHeaders, 'x-fapi-interaction-id')
  if (!sent || got === undefined || got === sent) return []
  const message = `The answer's x-fapi-interaction-id is not the one the request sent (${describeValue(sent)})`
  return [
    violation('bank.interaction-id', 'header x-fapi-interaction-id', 'interactionId', message, describeValue(got)),
  ]
}

const DETACHED_JWS = /^[A-Za-z0-9_-]+\.\.[A-Za-z0-9_-]+$/

/** A PIS answer with a body is signed: `x-jws-signature`, a detached JWS (`header..signature`). */
export function jwsSignatureRule(responseHeaders: Array<[string, string]>): ConformanceViolationDto[] {
  const sig = header(responseHeaders, 'x-jws-signature')
  const path = 'header x-jws-signature'
  if (sig === undefined)
    return [
      violation('bank.jws-signature', path, 'jwsSignature', 'A PIS answer with a body has no x-jws-signature header'),
    ]
  if (DETACHED_JWS.test(sig.trim())) return []
  const message = 'x-jws-signature is not a detached JWS (base64url header, two dots, base64url signature)'
  return [
    violation(
      'bank.jws-signature',
      path,
      'jwsSignature',
      message,
      describeValue(sig.length > 40 ? `${sig.slice(0, 40)}…` : sig),
    ),
  ]
}

/** An OAuth error answer of the authorisation server (4xx, JSON) carries `error`, a string. */
export function oauthErrorRule(body: unknown): ConformanceViolationDto[] {
  const b = body as Record<string, unknown> | null
  if (!b || typeof b !== 'object' || Array.isArray(b)) {
    return [
      violation('oauth.error-shape', '', 'oauthError', 'An OAuth error answer must be a JSON object', describeValue(b)),
    ]
  }
  const out: ConformanceViolationDto[] = []
  if (typeof b.error !== 'string') {
    const found = b.error === undefined ? undefined : describeValue(b.error)
    out.push(
      violation('oauth.error-shape', 'error', 'oauthError', 'An OAuth error answer has no "error" string', found),
    )
  }
  if (b.error_description !== undefined && typeof b.error_description !== 'string') {
    out.push(
      violation(
        'oauth.error-shape',
        'error_description',
        'oauthError',
        '"error_description" must be a string',
        describeValue(b.error_description),
      ),
    )
  }
  return out
}
