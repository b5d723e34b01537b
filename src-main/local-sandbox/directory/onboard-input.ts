import { randomInt } from 'node:crypto'
import type { OnboardInput, SoftwareRole } from './types.ts'

/** What a TPP gets when it names no redirect URI: the console's loopback listener (https and http) and its private-use scheme. */
export const DEFAULT_REDIRECT_URIS = [
  'https://127.0.0.1:53682/callback',
  'http://127.0.0.1:53682/callback',
  'ob-console://oauth/callback',
] as const
export const DEFAULT_ROLES: readonly SoftwareRole[] = ['AISP', 'PISP']
export const SUPPORTED_ROLES: readonly SoftwareRole[] = ['AISP', 'PISP']

export const MAX_REDIRECT_URIS = 20
export const MAX_REDIRECT_URI_LENGTH = 256
export const MAX_ORG_NAME_LENGTH = 64
export const MAX_CLIENT_NAME_LENGTH = 40

/** Open Banking organisation ids: 18 characters, `0015800001` then 8 of [0-9A-Z] (like `0015800001041RHAAY`). */
export const ORG_ID_PATTERN = /^[0-9A-Za-z]{1,35}$/
/** Open Banking software ids: up to 22 Base62 characters (the directory issues exactly 22). */
export const SOFTWARE_ID_PATTERN = /^[0-9A-Za-z]{1,22}$/

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const UPPER36 = BASE62.slice(0, 36)

function randomString(alphabet: string, length: number): string {
  let out = ''
  for (let i = 0; i < length; i++) out += alphabet[randomInt(alphabet.length)]
  return out
}

/** A new organisation id in the Open Banking directory's shape (18 characters). */
export function newOrgId(): string {
  return '0015800001' + randomString(UPPER36, 8)
}

/** A new software id: 22 Base62 characters, as the Open Banking directory issues them. */
export function newSoftwareId(): string {
  return randomString(BASE62, 22)
}

/** Bad onboarding input; `error` is the RFC 7591 style code, the message names the field and the rule. */
export class OnboardInputError extends Error {
  constructor(
    readonly error: 'invalid_request' | 'invalid_redirect_uri' | 'invalid_client_metadata',
    message: string,
  ) {
    super(message)
  }
}

function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c < 0x20 || c === 0x7f) return true
  }
  return false
}

const LOOPBACK_V4 = /^127(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/
const FORBIDDEN_SCHEMES = new Set([
  'javascript',
  'data',
  'file',
  'blob',
  'about',
  'vbscript',
  'ftp',
  'ws',
  'wss',
  'mailto',
  'tel',
])

/**
 * Why `uri` cannot be a redirect URI, or undefined when it can. The rules (RFC 8252 for native apps):
 * an absolute URI of at most 256 characters without a fragment; `https` to any host; `http` only to a
 * loopback IP literal (127.0.0.0/8 or [::1], not the name `localhost`); or a private-use scheme such
 * as `ob-console:` or `com.example.app:`.
 */
export function redirectUriProblem(uri: unknown): string | undefined {
  if (typeof uri !== 'string') return `each redirect URI must be a string, got ${JSON.stringify(uri)}`
  if (uri.length === 0) return 'a redirect URI is empty'
  if (uri.length > MAX_REDIRECT_URI_LENGTH)
    return `redirect URI "${uri.slice(0, 60)}…" is ${uri.length} characters; at most ${MAX_REDIRECT_URI_LENGTH} are allowed`
  if (/[\s<>"{}|\\^`]/.test(uri) || hasControlCharacter(uri))
    return `redirect URI "${uri}" contains a space, control or other character not allowed in a URI; percent-encode it`
  if (uri.includes('#'))
    return `redirect URI "${uri}" has a fragment (#…); redirect URIs must not have one (RFC 6749 3.1.2)`
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(uri)?.[1]?.toLowerCase()
  if (!scheme)
    return `redirect URI "${uri}" is not an absolute URI: it needs a scheme, e.g. https://127.0.0.1:53682/callback`
  let url: URL
  try {
    url = new URL(uri)
  } catch {
    return `redirect URI "${uri}" is not a valid absolute URI`
  }
  if (scheme === 'https') {
    if (!url.hostname) return `redirect URI "${uri}" has no host`
    return undefined
  }
  if (scheme === 'http') {
    const host = url.hostname
    if (LOOPBACK_V4.test(host) || host === '[::1]') return undefined
    if (host === 'localhost')
      return `redirect URI "${uri}" uses http with the name localhost; http is allowed only with a loopback IP literal (use http://127.0.0.1:PORT/… or http://[::1]:PORT/…, RFC 8252 8.3), or use https`
    return `redirect URI "${uri}" uses http to a host that is not a loopback IP; use https, or http only with 127.0.0.1 or [::1]`
  }
  if (FORBIDDEN_SCHEMES.has(scheme))
    return `redirect URI "${uri}" uses the scheme "${scheme}:", which cannot receive an authorisation response; use https, http on a loopback IP, or a private-use scheme such as com.example.app:/callback`
  if (uri.length <= scheme.length + 1)
    return `redirect URI "${uri}" has a scheme but nothing after it; add a path, e.g. ${scheme}://oauth/callback`
  return undefined
}

function optionalName(value: unknown, field: string, max: number): string | undefined {
  if (value === undefined) return undefined
  if (typeof value !== 'string')
    throw new OnboardInputError('invalid_request', `${field} must be a string, got ${JSON.stringify(value)}`)
  const trimmed = value.trim()
  if (trimmed.length === 0)
    throw new OnboardInputError('invalid_request', `${field} is empty; leave it out to get a generated name`)
  if (trimmed.length > max)
    throw new OnboardInputError(
      'invalid_request',
      `${field} is ${trimmed.length} characters; at most ${max} are allowed`,
    )
  if (hasControlCharacter(trimmed))
    throw new OnboardInputError('invalid_request', `${field} contains a control character`)
  return trimmed
}

/** Onboarding input after validation and defaults. */
export interface ValidOnboardInput {
  orgName?: string
  clientName?: string
  roles: SoftwareRole[]
  redirectUris: string[]
}

const KNOWN_FIELDS = ['orgName', 'clientName', 'roles', 'redirectUris']

/**
 * Validates onboarding input (from `POST /tpps` or the CLI) and applies the defaults: roles AISP and
 * PISP, the {@link DEFAULT_REDIRECT_URIS}. Throws OnboardInputError naming the field and the rule.
 */
export function validateOnboardInput(input: unknown): ValidOnboardInput {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw new OnboardInputError(
      'invalid_request',
      `the onboarding request must be a JSON object such as {"roles":["AISP"],"redirectUris":["https://127.0.0.1:53682/callback"]}, got ${Array.isArray(input) ? 'an array' : JSON.stringify(input)}`,
    )
  }
  const raw = input as Record<string, unknown>
  const unknown = Object.keys(raw).filter((k) => !KNOWN_FIELDS.includes(k))
  if (unknown.length)
    throw new OnboardInputError(
      'invalid_request',
      `unknown field${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `"${k}"`).join(', ')}; the fields are ${KNOWN_FIELDS.join(', ')} (all optional)`,
    )
  const { orgName, clientName, roles, redirectUris } = raw as OnboardInput

  let validRoles: SoftwareRole[] = [...DEFAULT_ROLES]
  if (roles !== undefined) {
    if (!Array.isArray(roles) || roles.length === 0)
      throw new OnboardInputError(
        'invalid_client_metadata',
        `roles must be a non-empty array of ${SUPPORTED_ROLES.join(', ')}, got ${JSON.stringify(roles)}`,
      )
    for (const role of roles) {
      if (!SUPPORTED_ROLES.includes(role))
        throw new OnboardInputError(
          'invalid_client_metadata',
          `role ${JSON.stringify(role)} is not supported; the local sandbox's roles are ${SUPPORTED_ROLES.join(' and ')}`,
        )
    }
    validRoles = SUPPORTED_ROLES.filter((r) => roles.includes(r))
  }

  let uris: string[] = [...DEFAULT_REDIRECT_URIS]
  if (redirectUris !== undefined) {
    if (!Array.isArray(redirectUris) || redirectUris.length === 0)
      throw new OnboardInputError(
        'invalid_redirect_uri',
        `redirectUris must be a non-empty array of URIs (each software statement needs at least one redirect URI), got ${JSON.stringify(redirectUris)}`,
      )
    if (redirectUris.length > MAX_REDIRECT_URIS)
      throw new OnboardInputError(
        'invalid_redirect_uri',
        `redirectUris has ${redirectUris.length} entries; at most ${MAX_REDIRECT_URIS} are allowed`,
      )
    for (const uri of redirectUris) {
      const problem = redirectUriProblem(uri)
      if (problem) throw new OnboardInputError('invalid_redirect_uri', problem)
    }
    uris = [...new Set(redirectUris)]
  }

  return {
    orgName: optionalName(orgName, 'orgName', MAX_ORG_NAME_LENGTH),
    clientName: optionalName(clientName, 'clientName', MAX_CLIENT_NAME_LENGTH),
    roles: validRoles,
    redirectUris: uris,
  }
}
