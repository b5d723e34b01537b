// Which names hold secrets, and of what kind: JSON members (compared exactly, or recognised by their
// ending), and URL, form and text parameters (the same, plus `code`). The redactor masks what sits under
// them (`core/redact.ts`, `core/redact-text.ts`); a name added here must also be found by the quick scan
// (`core/secret-quick-scan.ts`).
import type { SecretKind } from './secret-mask.ts'

/**
 * The HTTP authentication schemes whose credential the redactor masks, as RFC 9110 writes them. A scheme is
 * case-insensitive (RFC 9110 section 11.1), so a text may say `bearer` or `BEARER` too.
 */
export const CREDENTIAL_SCHEMES = ['Bearer', 'Basic', 'DPoP', 'Digest', 'Negotiate'] as const

/** The schemes as a regex alternative (match it with the `i` flag). */
export const CREDENTIAL_SCHEME_PATTERN = CREDENTIAL_SCHEMES.join('|')

/** What a scheme's credential is: a token (Bearer, DPoP) or another credential. */
export function credentialKindOfScheme(scheme: string): SecretKind {
  const lower = scheme.toLowerCase()
  return lower === 'bearer' || lower === 'dpop' ? 'token' : 'credential'
}

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

/** The kind of secret a URL, form or text parameter of this name holds, or undefined. */
export function secretKindOfParam(name: string): SecretKind | undefined {
  return name === 'code' ? 'code' : secretKindOfName(name)
}
