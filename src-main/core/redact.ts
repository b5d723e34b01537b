// Redaction of secrets by what they are, wherever they sit: headers, URLs, form bodies, JSON and free
// text. One rule set for the logger, the exchange log, flow state, the contract's answers, events, curl
// and HAR exports.
//
// - Private key material (PEM blocks raw, `\n`-escaped inside JSON or base64-encoded in a field; base64
//   DER private keys; the private members of a JWK) is removed: `[private key removed]`. Never revealable.
// - Tokens, codes and other credentials are masked: the first 8 and last 8 characters with `…` between
//   (`eyJhbGci…Xk2nQ0aA`); a value shorter than 32 characters is masked whole (`••••••••`). The user may
//   reveal one such value at a time: the caller passes the revealed values in `MaskContext.revealed`.
// - A text with nothing secret is kept byte for byte; a quick scan for markers runs before any parse.
import { createHmac, randomBytes } from 'node:crypto'
import { B64_DER_KEY_START, looksLikePrivateKey, PRIVATE_KEY_REMOVED, removePrivateKeys } from './private-key-scan.ts'

export { looksLikePrivateKey, PRIVATE_KEY_REMOVED }

/** What a short token, code or credential becomes. */
export const FULLY_MASKED = '••••••••'
/** Values at least this long keep their first and last 8 characters when masked. */
const PARTIAL_MASK_MIN = 32

export type SecretKind = 'private-key' | 'token' | 'code' | 'credential'

/** One secret the redactor met, as it reported it to `MaskContext.found`. */
export interface SecretFound {
  kind: SecretKind
  /** The member, parameter or header name it sat under, or what found it (`PEM`, `Bearer`). */
  name: string
  /** The value itself (main side only: never send it anywhere). */
  value: string
  /** What the value became (the value itself when revealed). */
  shown: string
  revealed: boolean
}

/** How one redaction pass treats what it finds. */
export interface MaskContext {
  /** Values the user revealed: shown as they are. Never applies to private keys. */
  revealed?: ReadonlySet<string>
  /** Told of every secret found (masked or revealed). */
  found?: (secret: SecretFound) => void
}

const NONE: MaskContext = {}

/** Headers whose whole value (after the auth scheme) is a credential. */
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie'])

/** Names that hold secrets, compared exactly; more are recognised by their ending (see `secretKindOfName`). */
const SECRET_NAMES: Record<string, SecretKind> = {
  client_secret: 'credential',
  clientSecret: 'credential',
  client_assertion: 'token',
  clientAssertion: 'token',
  assertion: 'token',
  authorization_code: 'code',
  authorizationCode: 'code',
  access_token: 'token',
  accessToken: 'token',
  refresh_token: 'token',
  refreshToken: 'token',
  id_token: 'token',
  idToken: 'token',
  registration_access_token: 'token',
  registrationAccessToken: 'token',
  token: 'token',
  subject_token: 'token',
  password: 'credential',
  passphrase: 'credential',
  secret: 'credential',
  private_key: 'private-key',
  privateKey: 'private-key',
  privateKeyPem: 'private-key',
  keyPem: 'private-key',
  key_pem: 'private-key',
}
const SECRET_NAME_ENDING =
  /(?:^|[_-])(token|secret|password|passphrase|assertion)$|[a-z](Token|Secret|Password|Passphrase|Assertion)$|(?:private_?key|key_?pem)$/i

/** Private members of a JWK (RFC 7518 6.3.2, 6.4). */
const JWK_PRIVATE_MEMBERS = new Set(['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'])

/** The kind of secret a JSON member of this name holds, or undefined. */
export function secretKindOfName(name: string): SecretKind | undefined {
  const exact = Object.hasOwn(SECRET_NAMES, name) ? SECRET_NAMES[name] : undefined
  if (exact) return exact
  const m = SECRET_NAME_ENDING.exec(name)
  if (!m) return undefined
  const word = (m[1] ?? m[2] ?? '').toLowerCase()
  return word === 'token' || word === 'assertion' ? 'token' : word ? 'credential' : 'private-key'
}

/** True when a JSON member of this name holds a secret. */
export function isSecretName(name: string): boolean {
  return secretKindOfName(name) !== undefined
}

/**
 * True when a URL, form or `name=value` text parameter of this name holds a secret: the JSON names plus
 * `code` (the authorisation code). As a JSON member `code` is usually an error code (see `redactJson`).
 */
export function isSecretParam(name: string): boolean {
  return name === 'code' || isSecretName(name)
}

function paramKind(name: string): SecretKind | undefined {
  return name === 'code' ? 'code' : secretKindOfName(name)
}

/**
 * True for what a redaction pass leaves in place of a secret (so a second pass leaves it alone), and for
 * a placeholder in words (`(stored encrypted)`), which holds nothing to hide.
 */
export function isMasked(value: string): boolean {
  return (
    value === FULLY_MASKED ||
    value === PRIVATE_KEY_REMOVED ||
    value === '' ||
    /^[^\s…]{1,8}…[^\s…]{1,8}$/.test(value) ||
    /^\([a-z ]+\)$/.test(value)
  )
}

/** A token or code masked: first 8 + `…` + last 8, or fully masked when short. */
export function maskToken(value: string): string {
  return value.length >= PARTIAL_MASK_MIN ? `${value.slice(0, 8)}…${value.slice(-8)}` : FULLY_MASKED
}

/** Masks one secret value under `ctx`: a private key is removed; anything else masked unless revealed. */
export function maskSecret(value: string, kind: SecretKind, name: string, ctx: MaskContext = NONE): string {
  if (isMasked(value)) return value
  if (kind === 'private-key' || looksLikePrivateKey(value)) {
    ctx.found?.({ kind: 'private-key', name, value, shown: PRIVATE_KEY_REMOVED, revealed: false })
    return PRIVATE_KEY_REMOVED
  }
  const revealed = ctx.revealed?.has(value) === true
  const shown = revealed ? value : maskToken(value)
  ctx.found?.({ kind, name, value, shown, revealed })
  return shown
}

const REF_KEY = randomBytes(32)

/**
 * An opaque, stable handle for a secret value (HMAC with a key of this process): lets the renderer ask
 * for one value without the handle telling anything about it.
 */
export function secretRef(value: string): string {
  return createHmac('sha256', REF_KEY).update(value).digest('base64url').slice(0, 22)
}

/** Removes private key material from a text, telling `ctx.found` of each key removed. */
function removeKeys(text: string, ctx: MaskContext): string {
  return removePrivateKeys(
    text,
    ctx.found &&
      ((name, value) => ctx.found?.({ kind: 'private-key', name, value, shown: PRIVATE_KEY_REMOVED, revealed: false })),
  )
}

// ---- the quick scan ----------------------------------------------------------------------------------

/**
 * What any rule needs to find before it can change a text: a secret member or parameter name (JSON
 * `"...token":`, `code=`), a JWK (`"kty":`), a `\u` escape (a name or value written with escapes is the
 * same to JSON.parse), a PEM private key, base64 of a PEM or of a DER private key, a `Bearer`/`Basic`/
 * `DPoP` credential. A text without any of them comes out of every function here unchanged; one pass
 * over 10 MB takes some tens of milliseconds.
 */
const SECRET_MEMBER =
  /(?:oken|ecret|assword|assphrase|ssertion|"code|_code|zationCode|ivate_?[kK]ey|ey_?[pP]em|"kty)"\s*:/
const SECRET_PARAM_BEFORE = /(?:code|oken|ecret|ssword|ssphrase|ssertion)$/
const ESCAPE = /\\u00[2-7][0-9A-Fa-f]/
const CREDENTIAL_SCHEME = /(?:Bearer|Basic|DPoP)\s/

/** A `name=` whose name ends like a secret parameter's, found from each `=` (few in most bodies). */
function hasSecretParam(text: string): boolean {
  for (let i = text.indexOf('='); i >= 0; i = text.indexOf('=', i + 1)) {
    if (i >= 4 && SECRET_PARAM_BEFORE.test(text.slice(Math.max(0, i - 10), i))) return true
  }
  return false
}

/**
 * False when no redaction rule can change `text`; true means "maybe". Several quick passes (literal
 * searches first, one small regex each): a 10 MB body is scanned in a few tens of milliseconds.
 */
export function mayHoldSecret(text: string): boolean {
  return (
    SECRET_MEMBER.test(text) ||
    hasSecretParam(text) ||
    text.includes('PRIVATE KEY') ||
    (text.includes('\\u00') && ESCAPE.test(text)) ||
    CREDENTIAL_SCHEME.test(text) ||
    text.includes('LS0t') ||
    ((text.includes('IBA') || text.includes('AgE') || text.includes('CAQ')) && B64_DER_KEY_START.test(text))
  )
}

// ---- headers, parameters, URLs, free text ------------------------------------------------------------

const CREDENTIAL = /\b(Bearer|Basic|DPoP|Digest|Negotiate)\s+([A-Za-z0-9._~+/=-]+)(?![A-Za-z0-9._~+/=…-])/g

/** Masks `Bearer`/`Basic` credentials inside a text. */
function maskCredentials(text: string, ctx: MaskContext): string {
  return text.replace(CREDENTIAL, (whole, scheme: string, cred: string, at: number) => {
    // `Bearer realm="bank"` is a challenge's parameter, not a credential.
    if (cred.endsWith('=') && text[at + whole.length] === '"') return whole
    return `${scheme} ${maskSecret(cred, scheme.toLowerCase() === 'bearer' || scheme === 'DPoP' ? 'token' : 'credential', scheme, ctx)}`
  })
}

/**
 * Redacts a header value: a credentials header keeps its scheme (`Bearer eyJhbGci…Xk2nQ0aA`); any other
 * header is searched by content (a key, a credential, a URL with a code).
 */
export function redactHeaderValue(name: string, value: string, ctx: MaskContext = NONE): string {
  const lower = name.toLowerCase()
  if (SECRET_HEADERS.has(lower)) {
    const scheme = /^(Bearer|Basic|DPoP|Digest|Negotiate)\s+(.*)$/i.exec(value)
    if (scheme)
      return `${scheme[1]} ${maskSecret(scheme[2]!, scheme[1]!.toLowerCase() === 'bearer' ? 'token' : 'credential', lower, ctx)}`
    return maskSecret(value, 'credential', lower, ctx)
  }
  if (lower === 'location' || lower === 'content-location' || lower === 'referer') return redactUrl(value, ctx)
  return redactText(value, ctx)
}

/** Redacts every header of a list or record (returns the same shape). */
export function redactHeaders<T extends Array<[string, string]> | Record<string, string>>(
  headers: T,
  ctx: MaskContext = NONE,
): T {
  if (Array.isArray(headers)) return headers.map(([k, v]) => [k, redactHeaderValue(k, v, ctx)]) as T
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, redactHeaderValue(k, v, ctx)])) as T
}

/**
 * Redacts secret parameters of a form body, query string or fragment (`a=1&code=xyz`), keeping the
 * rest byte for byte. A value that is private key material is removed whatever its name.
 */
export function redactParams(params: string, ctx: MaskContext = NONE): string {
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
    const kind = paramKind(name)
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
export function redactUrl(url: string, ctx: MaskContext = NONE): string {
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
export function redactText(text: string, ctx: MaskContext = NONE): string {
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
    const kind = paramKind(name)
    if (!kind || isMasked(value)) return whole
    const shown = maskSecret(value, kind, name, ctx)
    return shown === value ? whole : `${sep}${name}=${shown}`
  })
}

// ---- JSON ---------------------------------------------------------------------------------------------

/** An authorisation code, not an error code: long, one opaque word, not UPPER_SNAKE. */
function looksLikeAuthorisationCode(value: string): boolean {
  return value.length >= 16 && /^[A-Za-z0-9_~+/=-]+$/.test(value) && !/^[A-Z0-9_]+$/.test(value)
}

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}

/**
 * A JSON value with secrets redacted: members by name (tokens, secrets, assertions, passwords, private
 * keys; `code` when it holds an authorisation code rather than an error code), the private members of
 * JWKs, and every string by content (private keys, credentials, URL parameters). What has nothing
 * secret is returned as the same object (no copy), so a large value without secrets costs one walk.
 */
export function redactJson(value: unknown, ctx: MaskContext = NONE): unknown {
  if (typeof value === 'string') {
    if (!mayHoldSecret(value)) return value
    const out = redactText(value, ctx)
    return out !== value && out.trim() === PRIVATE_KEY_REMOVED ? PRIVATE_KEY_REMOVED : out
  }
  if (value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) {
    let out: unknown[] | undefined
    for (let i = 0; i < value.length; i++) {
      const v = value[i]
      const r = redactJson(v, ctx)
      if (r !== v) (out ??= value.slice())[i] = r
    }
    return out ?? value
  }
  if (!isPlainObject(value)) return value
  const obj = value as Record<string, unknown>
  const isJwk = typeof obj.kty === 'string'
  let out: Record<string, unknown> | undefined
  for (const k of Object.keys(obj)) {
    const v = obj[k]
    let r: unknown
    const kind =
      isJwk && JWK_PRIVATE_MEMBERS.has(k)
        ? 'private-key'
        : k === 'code'
          ? typeof v === 'string' && looksLikeAuthorisationCode(v)
            ? 'code'
            : undefined
          : secretKindOfName(k)
    if (kind && v !== null && v !== undefined) {
      if (
        typeof v === 'string' &&
        kind === 'private-key' &&
        !isJwk &&
        !looksLikePrivateKey(v) &&
        /-----BEGIN (?:PUBLIC KEY|CERTIFICATE)-----/.test(v)
      )
        r = v
      else
        r =
          typeof v === 'string'
            ? maskSecret(v, kind, k, ctx)
            : kind === 'private-key'
              ? PRIVATE_KEY_REMOVED
              : redactJson(v, ctx)
      if (typeof v !== 'string' && kind === 'private-key')
        ctx.found?.({ kind, name: k, value: JSON.stringify(v), shown: PRIVATE_KEY_REMOVED, revealed: false })
    } else {
      r = redactJson(v, ctx)
    }
    if (r !== v) (out ??= { ...obj })[k] = r
  }
  return out ?? obj
}

/**
 * Redacts a body by its content type: JSON members and strings, form parameters, or free text. A body
 * that is itself a JWT (`application/jwt`, `application/jose`: a registration request, a request
 * object) is not a secret but is still searched for key material. A body with nothing secret is kept
 * byte for byte.
 */
export function redactBody(text: string, contentType?: string, ctx: MaskContext = NONE): string {
  const type = (contentType ?? '').toLowerCase()
  // Fast path: nothing a rule could redact (valid JSON or not, the result would be the text itself).
  if (!mayHoldSecret(text)) return text
  if (type.includes('x-www-form-urlencoded')) return redactParams(text, ctx)
  if (type.includes('json') || /^\s*[[{]/.test(text)) {
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch {
      return redactText(text, ctx)
    }
    const redacted = redactJson(parsed, ctx)
    // Nothing secret: keep the body byte for byte (formatting included).
    return redacted === parsed ? text : JSON.stringify(redacted)
  }
  if (type.includes('jwt') || type.includes('jose')) return removeKeys(text, ctx)
  return redactText(text, ctx)
}
