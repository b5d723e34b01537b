// The redactor's fast path: a few quick passes over a text for anything a redaction rule needs to find
// before it can change it. A text without any of them comes out of every redaction function unchanged,
// so most bodies and log lines skip the full rules (`core/redact.ts`, `core/redact-text.ts`). It must find
// every name of `core/secret-names.ts` and every marker of `core/private-key-scan.ts`.
import { B64_DER_KEY_START } from './private-key-scan.ts'
import { CREDENTIAL_SCHEME_PATTERN } from './secret-names.ts'

/**
 * What any rule needs to find before it can change a text: a secret member or parameter name (JSON
 * `"...token":`, `code=`), a secret name as a pair's name (`"key": "client_secret",`), a JWK (`"kty":`), a `\u` escape (a name or value written with escapes is the
 * same to JSON.parse), a PEM private key, base64 of a PEM or of a DER private key, a credential of one of
 * `CREDENTIAL_SCHEMES` (`Bearer`, `negotiate`…). One pass over 10 MB takes some tens of milliseconds.
 */
const SECRET_MEMBER =
  /(?:oken|ecret|assword|assphrase|ssertion|"code|_code|zationCode|ivate_?[kK]ey|ey_?[pP]em|"kty)"\s*:/
/** A secret name as the `key`/`name` of a name/value pair (`{"key": "client_secret", "value": …}`). */
const SECRET_PAIR_NAME = /(?:oken|ecret|assword|assphrase|ssertion|ivate_?[kK]ey|ey_?[pP]em)"\s*[,}]/
const SECRET_PARAM_BEFORE = /(?:code|oken|ecret|ssword|ssphrase|ssertion)$/
const ESCAPE = /\\u00[2-7][0-9A-Fa-f]/
/** A credential of any scheme the redactor masks (`core/secret-names.ts`), in any case. */
const CREDENTIAL_SCHEME = new RegExp(`(?:${CREDENTIAL_SCHEME_PATTERN})\\s`, 'i')

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
    SECRET_PAIR_NAME.test(text) ||
    hasSecretParam(text) ||
    text.includes('PRIVATE KEY') ||
    (text.includes('\\u00') && ESCAPE.test(text)) ||
    CREDENTIAL_SCHEME.test(text) ||
    text.includes('LS0t') ||
    ((text.includes('IBA') || text.includes('AgE') || text.includes('CAQ')) && B64_DER_KEY_START.test(text))
  )
}
