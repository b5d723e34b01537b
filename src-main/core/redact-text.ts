// Redaction of secrets in texts: header values, form bodies, query strings and fragments, URLs and free
// text (log lines, bodies of unknown type, a cut JSON body, JSON string values). Private key material is
// removed; the credentials of the schemes of `CREDENTIAL_SCHEMES` (`Bearer`, `Basic`, `Negotiate`…), secret
// parameters and `"name": "value"` members with a secret name are masked (`core/secret-mask.ts`). JSON values
// and typed bodies: `core/redact.ts`.
import { looksLikePrivateKey } from './private-key-scan.ts'
import { isMasked, maskSecret, type MaskContext, NO_REVEAL, removeKeys } from './secret-mask.ts'
import {
  CREDENTIAL_SCHEME_PATTERN,
  CREDENTIAL_SCHEMES,
  credentialKindOfScheme,
  secretKindOfName,
  secretKindOfParam,
} from './secret-names.ts'
import { mayHoldSecret } from './secret-quick-scan.ts'

/** Headers whose whole value (after the auth scheme) is a credential. */
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie'])

const CREDENTIAL = new RegExp(`\\b(${CREDENTIAL_SCHEME_PATTERN})\\s+([A-Za-z0-9._~+/=-]+)(?![A-Za-z0-9._~+/=…-])`, 'gi')
const CREDENTIAL_HEADER = new RegExp(`^(${CREDENTIAL_SCHEME_PATTERN})\\s+(.*)$`, 'i')
const CANONICAL_SCHEMES: ReadonlySet<string> = new Set(CREDENTIAL_SCHEMES)
/**
 * A scheme word written in another case is also an English word ("a basic consent", "send a bearer token"):
 * there only a credential this long is taken for one (tokens and Basic credentials are longer).
 */
const OTHER_CASE_MIN_CREDENTIAL = 16

/** Masks the credentials of the schemes of `CREDENTIAL_SCHEMES` inside a text (`Bearer …`, `negotiate …`). */
function maskCredentials(text: string, ctx: MaskContext): string {
  return text.replace(CREDENTIAL, (whole, scheme: string, cred: string, at: number) => {
    // `Bearer realm="bank"` is a challenge's parameter, not a credential.
    if (cred.endsWith('=') && text[at + whole.length] === '"') return whole
    if (!CANONICAL_SCHEMES.has(scheme) && cred.length < OTHER_CASE_MIN_CREDENTIAL) return whole
    return `${scheme} ${maskSecret(cred, credentialKindOfScheme(scheme), scheme, ctx)}`
  })
}

/**
 * Redacts a header value: a credentials header keeps its scheme (`Bearer eyJhbGci…Xk2nQ0aA`); any other
 * header is searched by content (a key, a credential, a URL with a code).
 */
export function redactHeaderValue(name: string, value: string, ctx: MaskContext = NO_REVEAL): string {
  const lower = name.toLowerCase()
  if (SECRET_HEADERS.has(lower)) {
    const scheme = CREDENTIAL_HEADER.exec(value)
    if (scheme) return `${scheme[1]} ${maskSecret(scheme[2]!, credentialKindOfScheme(scheme[1]!), lower, ctx)}`
    return maskSecret(value, 'credential', lower, ctx)
  }
  if (lower === 'location' || lower === 'content-location' || lower === 'referer') return redactUrl(value, ctx)
  return redactText(value, ctx)
}

/** Redacts every header of a list or record (returns the same shape). */
export function redactHeaders<T extends Array<[string, string]> | Record<string, string>>(
  headers: T,
  ctx: MaskContext = NO_REVEAL,
): T {
  if (Array.isArray(headers)) return headers.map(([k, v]) => [k, redactHeaderValue(k, v, ctx)]) as T
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, redactHeaderValue(k, v, ctx)])) as T
}

/**
 * Redacts secret parameters of a form body, query string or fragment (`a=1&code=xyz`), keeping the
 * rest byte for byte. A value that is private key material is removed whatever its name.
 */
export function redactParams(params: string, ctx: MaskContext = NO_REVEAL): string {
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
    let value = rawValue
    if (/[%+]/.test(rawValue)) {
      try {
        value = decodeURIComponent(rawValue.replace(/\+/g, ' '))
      } catch {
        // keep the raw value
      }
    }
    const kind = secretKindOfParam(name)
    if (!kind) {
      if (value.length >= 40 && looksLikePrivateKey(value))
        return `${sep}${rawName}=${maskSecret(value, 'private-key', name, ctx)}`
      return whole
    }
    if (isMasked(value)) return whole
    const shown = maskSecret(value, kind, name, ctx)
    return `${sep}${rawName}=${shown === value ? rawValue : shown}`
  })
}

/** Redacts secret query and fragment parameters of a URL (and any password in its authority). */
export function redactUrl(url: string, ctx: MaskContext = NO_REVEAL): string {
  let out = url.replace(/^([a-z][a-z0-9+.-]*:\/\/)([^/@?#]*)@/i, (_w, scheme: string, userinfo: string) =>
    userinfo.includes(':')
      ? `${scheme}${userinfo.slice(0, userinfo.indexOf(':'))}:${maskSecret(userinfo.slice(userinfo.indexOf(':') + 1), 'credential', 'password', ctx)}@`
      : `${scheme}${userinfo}@`,
  )
  const q = out.search(/[?#]/)
  if (q >= 0) out = out.slice(0, q) + redactParams(out.slice(q), ctx)
  return out
}

const JSON_MEMBER_IN_TEXT = /"([A-Za-z_][A-Za-z0-9_]*)"(\s*:\s*)"((?:[^"\\]|\\.)*)"/g
const PARAM_IN_TEXT = /(^|[\s&?#;,"'(<])([A-Za-z_][A-Za-z0-9_]*)=([^\s&#;,"'<>)]+)/g

/**
 * Redacts secrets inside free text (log messages, bodies of unknown type, JSON string values, a cut
 * JSON body): private key material, `Bearer`/`Basic` credentials, `name=value` parameters and JSON
 * `"name": "value"` members with a secret name.
 */
export function redactText(text: string, ctx: MaskContext = NO_REVEAL): string {
  if (!mayHoldSecret(text)) return text
  let out = removeKeys(text, ctx)
  out = maskCredentials(out, ctx)
  out = out.replace(JSON_MEMBER_IN_TEXT, (whole, name: string, colon: string, value: string) => {
    const kind = secretKindOfName(name)
    if (!kind || isMasked(value)) return whole
    const shown = maskSecret(value, kind, name, ctx)
    return shown === value ? whole : `"${name}"${colon}"${shown}"`
  })
  return out.replace(PARAM_IN_TEXT, (whole, sep: string, name: string, value: string) => {
    const kind = secretKindOfParam(name)
    if (!kind || isMasked(value)) return whole
    const shown = maskSecret(value, kind, name, ctx)
    return shown === value ? whole : `${sep}${name}=${shown}`
  })
}
