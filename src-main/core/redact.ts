// Redaction of secrets by what they are, wherever they sit: headers, URLs, form bodies, JSON and free
// text. One rule set for the logger, the exchange log, flow state, the contract's answers, events, curl
// and HAR exports. This module redacts JSON values and bodies by content type; its parts:
//
// - `core/private-key-scan.ts` finds private key material (PEM blocks raw, `\n`-escaped inside JSON or
//   base64-encoded in a field; base64 DER private keys); with the private members of a JWK it is removed:
//   `[private key removed]`. Never revealable.
// - `core/secret-names.ts` says which names hold tokens, codes and other credentials; `core/secret-mask.ts`
//   masks them: the first 8 and last 8 characters with `…` between (`eyJhbGci…Xk2nQ0aA`); a value shorter
//   than 32 characters is masked whole (`••••••••`). The user may reveal one such value at a time: the
//   caller passes the revealed values in `MaskContext.revealed`.
// - `core/redact-text.ts` redacts header values, parameters, URLs and free text.
// - A text with nothing secret is kept byte for byte; a quick scan for markers runs before any parse
//   (`core/secret-quick-scan.ts`).
import { looksLikePrivateKey, PRIVATE_KEY_REMOVED } from './private-key-scan.ts'
import { redactParams, redactText } from './redact-text.ts'
import { maskSecret, type MaskContext, NO_REVEAL, removeKeys } from './secret-mask.ts'
import { secretKindOfName } from './secret-names.ts'
import { mayHoldSecret } from './secret-quick-scan.ts'

export { PRIVATE_KEY_REMOVED }

/** Private members of a JWK (RFC 7518 6.3.2, 6.4). */
const JWK_PRIVATE_MEMBERS = new Set(['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'])

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
export function redactJson(value: unknown, ctx: MaskContext = NO_REVEAL): unknown {
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
  // A name/value pair (`{ "key": "client_secret", "value": "…" }`, a Postman environment's row): the value is
  // what the name says.
  const pairName = typeof obj.key === 'string' ? obj.key : typeof obj.name === 'string' ? obj.name : undefined
  const pairKind = pairName !== undefined && typeof obj.value === 'string' ? secretKindOfName(pairName) : undefined
  let out: Record<string, unknown> | undefined
  for (const k of Object.keys(obj)) {
    const v = obj[k]
    let r: unknown
    const kind =
      isJwk && JWK_PRIVATE_MEMBERS.has(k)
        ? 'private-key'
        : k === 'value' && pairKind
          ? pairKind
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
export function redactBody(text: string, contentType?: string, ctx: MaskContext = NO_REVEAL): string {
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
