// Redaction of secrets in headers, URLs, form bodies, JSON and free text. One rule set for the logger,
// the exchange log, curl and HAR exports.
//
// Rule: a secret value becomes `REDACTED`. A secret that is a JWT keeps its header and claims (they are
// what a developer debugs) and loses its signature, which is what would make it usable:
// `eyJhbGciOi....eyJpc3Mi....REDACTED`.
import { looksLikeJwt } from './jwt-parts.ts'

export const REDACTED = 'REDACTED'

/** Headers whose whole value (after the auth scheme) is a credential. */
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie'])

/**
 * JSON member (and parameter) names that hold secrets: client secrets, client assertions, tokens,
 * passwords, private keys. Compared exactly.
 */
const SECRET_NAMES = new Set([
  'client_secret', 'clientSecret',
  'client_assertion', 'clientAssertion',
  'authorization_code',
  'access_token', 'accessToken',
  'refresh_token', 'refreshToken',
  'id_token', 'idToken',
  'token', 'subject_token', 'assertion',
  'password', 'passphrase',
  'private_key', 'privateKey', 'privateKeyPem', 'keyPem', 'key_pem',
  'secret',
])

/** Private members of a JWK (RFC 7518 6.3.2, 6.4). */
const JWK_PRIVATE_MEMBERS = new Set(['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'])

/**
 * Parameter names that hold secrets: the JSON names plus `code` (the authorisation code). `code` is a
 * secret as a URL or form parameter only: as a JSON member it is an error code (OB `Code`, ours).
 */
const SECRET_PARAMS = new Set([...SECRET_NAMES, 'code'])

/** True when a JSON member of this name holds a secret. */
export function isSecretName(name: string): boolean {
  return SECRET_NAMES.has(name)
}

/** True when a URL, form or `name=value` text parameter of this name holds a secret. */
export function isSecretParam(name: string): boolean {
  return SECRET_PARAMS.has(name)
}

/** Redacts one secret value: a JWT keeps header and claims, anything else becomes REDACTED. */
export function redactSecretValue(value: string): string {
  if (value === '') return value
  if (looksLikeJwt(value)) {
    const [h, p] = value.split('.')
    return `${h}.${p}.${REDACTED}`
  }
  return REDACTED
}

/**
 * Redacts a header value when the header carries credentials. The auth scheme stays visible:
 * `Bearer REDACTED`, `Basic REDACTED`.
 */
export function redactHeaderValue(name: string, value: string): string {
  if (!SECRET_HEADERS.has(name.toLowerCase())) return value
  const scheme = /^(Bearer|Basic|DPoP|Digest|Negotiate)\s+(.*)$/i.exec(value)
  if (scheme) return `${scheme[1]} ${redactSecretValue(scheme[2]!)}`
  return REDACTED
}

/** Redacts every header of a list or record (returns the same shape). */
export function redactHeaders<T extends Array<[string, string]> | Record<string, string>>(headers: T): T {
  if (Array.isArray(headers)) return headers.map(([k, v]) => [k, redactHeaderValue(k, v)]) as T
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, redactHeaderValue(k, v)])) as T
}

/**
 * Redacts secret parameters of a form body, query string or fragment (`a=1&code=xyz`), keeping the
 * rest byte for byte.
 */
export function redactParams(params: string): string {
  return params.replace(/(^|[&;?#])([^=&;?#]+)=([^&;#]*)/g, (whole, sep: string, rawName: string, rawValue: string) => {
    let name = rawName
    // Most names are plain: decode only what has an escape or a +.
    if (/[%+]/.test(rawName)) {
      try {
        name = decodeURIComponent(rawName.replace(/\+/g, ' '))
      } catch {
        // keep the raw name
      }
    }
    if (!isSecretParam(name)) return whole
    let value = rawValue
    try {
      value = decodeURIComponent(rawValue.replace(/\+/g, ' '))
    } catch {
      // keep the raw value
    }
    return `${sep}${rawName}=${redactSecretValue(value)}`
  })
}

/** Redacts secret query and fragment parameters of a URL (and any password in its authority). */
export function redactUrl(url: string): string {
  let out = url.replace(/^([a-z][a-z0-9+.-]*:\/\/)([^/@?#]*)@/i, (_w, scheme: string, userinfo: string) =>
    userinfo.includes(':') ? `${scheme}${userinfo.slice(0, userinfo.indexOf(':'))}:${REDACTED}@` : `${scheme}${userinfo}@`)
  const q = out.search(/[?#]/)
  if (q >= 0) out = out.slice(0, q) + redactParams(out.slice(q))
  return out
}

/** Deep copy of a JSON value with secret members redacted (and private members of JWKs). */
export function redactJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactJson)
  if (value === null || typeof value !== 'object') return value
  const obj = value as Record<string, unknown>
  const isJwk = typeof obj.kty === 'string'
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(obj)) {
    if ((isSecretName(k) || (isJwk && JWK_PRIVATE_MEMBERS.has(k))) && v !== null && v !== undefined) {
      out[k] = typeof v === 'string' ? redactSecretValue(v) : REDACTED
    } else {
      out[k] = redactJson(v)
    }
  }
  return out
}

/**
 * What any redaction rule for bodies and free text needs to find before it can change a text: a secret
 * member or parameter name (JSON `"name":`, `name=`), a JWK (`"kty":`), a member name written with
 * `\u` escapes (`"client\u005fsecret"` is `client_secret` to JSON.parse), a PEM private key, a `Bearer`
 * or `Basic` credential. A text without any of them comes out of `redactText` and `redactBody`
 * unchanged; one that has one goes through the full rules. One regex pass: a 10 MB transactions list
 * is scanned in about 15 ms instead of parsed, copied and serialised twice.
 */
const names = (set: Set<string>) => [...set].join('|')
const MAY_HOLD_SECRET = new RegExp(`"(?:${names(SECRET_NAMES)}|kty)"\\s*:|(?:${names(SECRET_PARAMS)})=|\\\\u00[4-7][0-9A-Fa-f]|PRIVATE KEY-----|\\b(?:Bearer|Basic)\\s`)

/** False when no redaction rule can change `text` (see MAY_HOLD_SECRET); true means "maybe". */
export function mayHoldSecret(text: string): boolean {
  return MAY_HOLD_SECRET.test(text)
}

const PEM_PRIVATE_KEY = /-----BEGIN ((?:ENCRYPTED |RSA |EC |DSA |OPENSSH )?PRIVATE KEY)-----[\s\S]*?-----END \1-----/g

/**
 * Redacts secrets inside free text (log messages, bodies of unknown type): PEM private keys,
 * `Bearer`/`Basic` credentials, `name=value` parameters and JSON `"name": "value"` members with a
 * secret name.
 */
export function redactText(text: string): string {
  if (!mayHoldSecret(text)) return text
  return text
    .replace(PEM_PRIVATE_KEY, (_w, label: string) => `-----BEGIN ${label}-----\n${REDACTED}\n-----END ${label}-----`)
    .replace(/\b(Bearer|Basic)\s+([A-Za-z0-9._~+/=-]+)/g, (_w, scheme: string, cred: string) => `${scheme} ${redactSecretValue(cred)}`)
    .replace(/"([A-Za-z_]+)"(\s*:\s*)"((?:[^"\\]|\\.)*)"/g, (whole, name: string, colon: string, value: string) =>
      isSecretName(name) ? `"${name}"${colon}"${redactSecretValue(value)}"` : whole)
    .replace(/(^|[\s&?#;,])([A-Za-z_]+)=([^\s&#;,"]+)/g, (whole, sep: string, name: string, value: string) =>
      isSecretParam(name) ? `${sep}${name}=${redactSecretValue(value)}` : whole)
}

/**
 * Redacts a body by its content type: JSON members, form parameters, or free text. A body that is
 * itself a JWT (`application/jwt`, `application/jose`) is not secret (a registration request or a
 * request object) and is kept.
 */
export function redactBody(text: string, contentType?: string): string {
  const type = (contentType ?? '').toLowerCase()
  // Fast path: nothing a rule could redact (valid JSON or not, the result would be the text itself).
  if (!type.includes('x-www-form-urlencoded') && !mayHoldSecret(text)) return text
  if (type.includes('json') || /^\s*[[{]/.test(text)) {
    try {
      const parsed: unknown = JSON.parse(text)
      const redacted = JSON.stringify(redactJson(parsed))
      // Nothing secret: keep the body byte for byte (formatting included).
      return redacted === JSON.stringify(parsed) ? text : redacted
    } catch {
      return redactText(text)
    }
  }
  if (type.includes('x-www-form-urlencoded')) return redactParams(text)
  if (type.includes('jwt') || type.includes('jose')) return text
  return redactText(text)
}
