import type { DecodedJwtDto } from '../contract/jwt.ts'
import { decodeJwtParts, jwtTimes, looksLikeJwt } from '../core/jwt-parts.ts'

/** A JWT found in an exchange: where, and its compact form. `secret` ones are redacted in views. */
export interface FoundJwt {
  location: string
  compact: string
  /** The name it was found under (a form or JSON member, a header), for redaction decisions. */
  name: string
}

function fromParams(params: string, where: string, out: FoundJwt[]): void {
  for (const pair of params.split('&')) {
    const i = pair.indexOf('=')
    if (i <= 0) continue
    let name = pair.slice(0, i)
    let value = pair.slice(i + 1)
    try {
      name = decodeURIComponent(name.replace(/\+/g, ' '))
      value = decodeURIComponent(value.replace(/\+/g, ' '))
    } catch {
      continue
    }
    if (looksLikeJwt(value)) out.push({ location: `${where} ${name}`, compact: value, name })
  }
}

function fromUrl(url: string, where: string, out: FoundJwt[]): void {
  const hash = url.indexOf('#')
  const query = url.indexOf('?')
  if (query >= 0) fromParams(url.slice(query + 1, hash > query ? hash : undefined), `${where} query`, out)
  if (hash >= 0) fromParams(url.slice(hash + 1), `${where} fragment`, out)
}

function fromJson(value: unknown, path: string, where: string, out: FoundJwt[]): void {
  if (typeof value === 'string') {
    if (looksLikeJwt(value))
      out.push({ location: `${where} ${path}`, compact: value, name: path.split('.').pop() ?? path })
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => fromJson(v, `${path}[${i}]`, where, out))
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) fromJson(v, path ? `${path}.${k}` : k, where, out)
  }
}

/** The two dots of a compact JWS up to the closing quote of its JSON string (the quote looked at, not taken). */
const DOTS_TO_QUOTE = /\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*(?=")/g
/** A `\u` escape of a character of the compact alphabet (letters, digits, `-`, `.`, `_`). */
const ESCAPED_COMPACT_CHAR = /\\u00(?:2[DEde]|[3-7][0-9A-Fa-f])/

const isCompactChar = (c: number) =>
  (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 45 || c === 95

/**
 * False when no string of this JSON text can be a JWT, found by one scan of the text: no string with
 * the compact shape whose header decodes (as `looksLikeJwt` says), and no string that could become one
 * once its `\u` escapes are read. A large body without a JWT (a transactions list) is not parsed.
 */
export function jsonMayHoldJwt(text: string): boolean {
  if (ESCAPED_COMPACT_CHAR.test(text)) return true
  DOTS_TO_QUOTE.lastIndex = 0
  for (let m = DOTS_TO_QUOTE.exec(text); m; m = DOTS_TO_QUOTE.exec(text)) {
    // Back over the header segment to the opening quote: the whole string must be the compact form.
    let start = m.index
    while (start > 0 && isCompactChar(text.charCodeAt(start - 1))) start--
    if (start === 0 || text.charCodeAt(start - 1) !== 34 || m.index - start < 2) continue
    if (looksLikeJwt(text.slice(start, m.index + m[0].length))) {
      DOTS_TO_QUOTE.lastIndex = 0
      return true
    }
  }
  return false
}

function fromBody(text: string | undefined, contentType: string | undefined, where: string, out: FoundJwt[]): void {
  if (!text) return
  const trimmed = text.trim()
  if (looksLikeJwt(trimmed)) {
    out.push({ location: where, compact: trimmed, name: 'body' })
    return
  }
  const type = (contentType ?? '').toLowerCase()
  if (type.includes('x-www-form-urlencoded')) return fromParams(trimmed, where, out)
  if (type.includes('json') || trimmed.startsWith('{') || trimmed.startsWith('[')) {
    // The JWTs of a JSON body are named by their path, which takes a parse: done only when one is there.
    if (!jsonMayHoldJwt(trimmed)) return
    try {
      fromJson(JSON.parse(trimmed), '', where, out)
    } catch {
      // Not JSON after all: nothing to find.
    }
  }
}

/** The parts of an exchange the finder searches. */
export interface JwtSearchInput {
  url: string
  requestHeaders: Array<[string, string]>
  requestBody?: string
  requestContentType?: string
  responseHeaders?: Array<[string, string]>
  responseBody?: string
  responseContentType?: string
}

/**
 * Every JWT in an exchange: the request body (registration JWT), form members (client_assertion,
 * request), `request=` and other URL parameters, `Authorization: Bearer` JWTs, `x-jws-signature`
 * headers (detached), redirect `Location`s (id_token in a fragment), and JSON response members
 * (id_token, access_token, software_statement), and the JWTs inside a JWT's claims (`request body ›
 * software_statement`: the SSA of a registration request).
 */
export function findJwts(input: JwtSearchInput): FoundJwt[] {
  const out: FoundJwt[] = []
  fromUrl(input.url, 'request', out)
  for (const [side, headers] of [
    ['request', input.requestHeaders],
    ['response', input.responseHeaders ?? []],
  ] as const) {
    for (const [name, value] of headers) {
      const lower = name.toLowerCase()
      if (lower === 'x-jws-signature' && value.includes('..'))
        out.push({ location: `${side} header x-jws-signature`, compact: value.trim(), name: lower })
      else if (lower === 'authorization') {
        const token = /^Bearer\s+(\S+)$/i.exec(value)?.[1]
        if (token && looksLikeJwt(token))
          out.push({ location: `${side} header authorization`, compact: token, name: lower })
      } else if (lower === 'location') fromUrl(value, 'response location', out)
    }
  }
  fromBody(input.requestBody, input.requestContentType, 'request body', out)
  fromBody(input.responseBody, input.responseContentType, 'response body', out)
  // A JWT inside a JWT's claims: the software statement of a registration request.
  for (const f of [...out]) {
    let claims: Record<string, unknown> | undefined
    try {
      claims = decodeJwtParts(f.compact).claims
    } catch {
      continue
    }
    if (claims && jsonMayHoldJwt(JSON.stringify(claims))) fromJson(claims, '', `${f.location} ›`, out)
  }
  return out
}

/** Decodes a found JWT for display (a detached JWS has a header only). Never throws. */
export function decodeFound(found: FoundJwt, shownCompact: string): DecodedJwtDto {
  try {
    const parts = decodeJwtParts(found.compact)
    return {
      location: found.location,
      header: parts.header,
      ...(parts.claims ? { claims: parts.claims } : {}),
      times: jwtTimes(parts.header, parts.claims),
      signature: parts.detached ? 'detached' : parts.signatureSegment === '' ? 'none' : 'present',
      compact: shownCompact,
    }
  } catch (err) {
    return {
      location: found.location,
      header: {},
      times: {},
      signature: 'present',
      compact: shownCompact,
      error: (err as Error).message,
    }
  }
}
