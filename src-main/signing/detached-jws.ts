import { FlattenedSign, base64url, flattenedVerify, type JSONWebKeySet } from 'jose'
import type { CheckResult } from '../contract/checks.ts'
import { AppError } from '../core/app-error.ts'
import { check } from './check.ts'
import { findJwk, jwksKids, jwksResolver } from './jwks.ts'
import type { SigningKey } from './signing-key.ts'

export const OB_IAT = 'http://openbanking.org.uk/iat'
export const OB_ISS = 'http://openbanking.org.uk/iss'
export const OB_TAN = 'http://openbanking.org.uk/tan'
/** The crit list of v3.1.4 and later: exactly these three, no `b64`. */
export const OB_CRIT = [OB_IAT, OB_ISS, OB_TAN]
/** The trust anchor of the Open Banking directory. */
export const OB_TAN_DIRECTORY = 'openbanking.org.uk'
const CRIT_OPTION = { crit: Object.fromEntries(OB_CRIT.map((c) => [c, true])) }
const ALLOWED_HEADER = new Set(['alg', 'kid', 'typ', 'cty', 'crit', OB_IAT, OB_ISS, OB_TAN])

const bytes = (body: Uint8Array | string) => (typeof body === 'string' ? new TextEncoder().encode(body) : body)

export interface DetachedJwsInput {
  signer: SigningKey
  /** `{org_id}/{software_id}` of the TPP (reference section 4). */
  orgId: string
  softwareId: string
  /** Seconds since the epoch: `http://openbanking.org.uk/iat`. */
  now: number
  /** Default `openbanking.org.uk`. */
  tan?: string
}

/**
 * The `x-jws-signature` of a request body: a detached JWS (`header..signature`) over the exact bytes
 * sent, PS256, with the three Open Banking crit claims (iat, iss = `{org_id}/{software_id}`, tan), no
 * `b64`. Send exactly the bytes signed.
 *
 * @example const body = JSON.stringify(consent)
 *          const sig = await signDetachedJws(body, { signer, orgId, softwareId, now: clock.epochSeconds() })
 */
export async function signDetachedJws(body: Uint8Array | string, input: DetachedJwsInput): Promise<string> {
  if (!input.orgId || !input.softwareId) {
    throw new AppError('INVALID_INPUT', {
      what: 'Signing the request body failed',
      cause: 'the organisation id or software id is empty',
      fix: 'take both from the software statement (org_id, software_id)',
    })
  }
  const jws = await new FlattenedSign(bytes(body))
    .setProtectedHeader({
      alg: 'PS256',
      kid: input.signer.kid,
      typ: 'JOSE',
      cty: 'application/json',
      [OB_IAT]: input.now,
      [OB_ISS]: `${input.orgId}/${input.softwareId}`,
      [OB_TAN]: input.tan ?? OB_TAN_DIRECTORY,
      crit: OB_CRIT,
    })
    .sign(input.signer.key, CRIT_OPTION)
  return `${jws.protected}..${jws.signature}`
}

export interface DetachedJwsVerifyOptions {
  /** Keys of the signer (the bank's JWKS for responses, the TPP's for requests). */
  jwks: JSONWebKeySet
  /** Expected `http://openbanking.org.uk/iss` (the ASPSP's org id for responses); not checked if absent. */
  expectedIss?: string
  /** Seconds since the epoch. */
  now: number
  trustedTans?: string[]
  clockSkewSeconds?: number
}

type Header = Record<string, unknown>

/** The detached JWS's three parts and its header, or what is wrong with its form. */
function readDetached(signature: string): { parts: string[]; header: Header } | { problem: string } {
  const parts = signature.trim().split('.')
  try {
    if (parts.length !== 3 || parts[1] !== '')
      throw new Error(parts.length !== 3 ? `${parts.length} parts` : 'the payload part is not empty')
    const header = JSON.parse(Buffer.from(parts[0]!, 'base64url').toString('utf8')) as Header
    if (typeof header !== 'object' || header === null || Array.isArray(header))
      throw new Error('the header is not a JSON object')
    return { parts, header }
  } catch (err) {
    return { problem: (err as Error).message }
  }
}

/** Only the allowed header claims, alg PS256, typ and cty as the reference allows. */
function headerFormChecks(header: Header): CheckResult[] {
  const checks: CheckResult[] = []
  const extra = Object.keys(header).filter((k) => !ALLOWED_HEADER.has(k))
  checks.push(
    check(
      'header claims',
      extra.length === 0,
      `only ${[...ALLOWED_HEADER].join(', ')}`,
      extra.length ? `also ${extra.join(', ')}` : 'only allowed claims',
      extra.includes('b64')
        ? 'b64 is not used since v3.1.4: sign the base64url-encoded body'
        : 'remove the extra header claims',
    ),
  )
  checks.push(check('alg', header.alg === 'PS256', 'PS256', header.alg))
  checks.push(check('typ', header.typ === undefined || header.typ === 'JOSE', 'JOSE or absent', header.typ))
  checks.push(
    check(
      'cty',
      header.cty === undefined || header.cty === 'json' || header.cty === 'application/json',
      'json, application/json or absent',
      header.cty,
    ),
  )
  return checks
}

/** The Open Banking claims: iat in the past, iss, a trusted tan, crit exactly the three OB claims. */
function obClaimChecks(header: Header, options: DetachedJwsVerifyOptions): CheckResult[] {
  const checks: CheckResult[] = []
  const iat = header[OB_IAT]
  const skew = options.clockSkewSeconds ?? 60
  checks.push(
    check(
      OB_IAT,
      typeof iat === 'number' && iat <= options.now + skew,
      `a time in the past (now ${options.now})`,
      iat,
      typeof iat === 'number'
        ? `iat is ${iat - options.now} s in the future: one of the clocks is wrong`
        : 'iat must be a JSON number',
    ),
  )
  const iss = header[OB_ISS]
  checks.push(
    check(
      OB_ISS,
      typeof iss === 'string' && (options.expectedIss === undefined || iss === options.expectedIss),
      options.expectedIss ?? 'a string ({org_id} for the bank, {org_id}/{software_id} for a TPP)',
      iss,
    ),
  )
  const tans = options.trustedTans ?? [OB_TAN_DIRECTORY]
  checks.push(
    check(
      OB_TAN,
      typeof header[OB_TAN] === 'string' && tans.includes(header[OB_TAN] as string),
      tans.join(' or '),
      header[OB_TAN],
    ),
  )
  const crit = header.crit
  const critOk = Array.isArray(crit) && crit.length === OB_CRIT.length && OB_CRIT.every((c) => crit.includes(c))
  checks.push(
    check(
      'crit',
      critOk,
      OB_CRIT,
      crit,
      Array.isArray(crit) && crit.includes('b64')
        ? 'b64 in crit is the pre-3.1.4 form; v4.0 uses exactly the three OB claims'
        : 'crit must list exactly the three Open Banking claims',
    ),
  )
  return checks
}

/** The signature over the exact body bytes, verified only with alg PS256 and a key of the JWKS. */
async function signatureCheck(
  parts: string[],
  body: Uint8Array | string,
  usable: boolean,
  jwks: JSONWebKeySet,
): Promise<CheckResult> {
  if (!usable) return check('signature', false, 'valid over the exact body bytes', 'not verified (alg or kid unusable)')
  try {
    await flattenedVerify(
      { protected: parts[0]!, payload: base64url.encode(bytes(body)), signature: parts[2]! },
      jwksResolver(jwks),
      { ...CRIT_OPTION, algorithms: ['PS256'] },
    )
    return check('signature', true, 'valid over the exact body bytes', 'valid')
  } catch (err) {
    const code = (err as { code?: string }).code
    return check(
      'signature',
      false,
      'valid over the exact body bytes',
      code === 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED' ? 'does not match the body' : (err as Error).message,
      'the body was changed after signing (even whitespace counts), or another key signed it',
    )
  }
}

/**
 * Verifies an `x-jws-signature` against the exact body bytes and a JWKS, check by check (reference
 * section 4 "Verifying"): header readable, only the allowed claims, alg PS256, typ/cty, kid in the JWKS,
 * iat in the past, iss, tan, crit exactly the three OB claims without b64, and the signature.
 *
 * @example const { valid, checks } = await verifyDetachedJws(res.headers['x-jws-signature'], rawBody, { jwks, now })
 */
export async function verifyDetachedJws(
  signature: string | undefined,
  body: Uint8Array | string,
  options: DetachedJwsVerifyOptions,
): Promise<{ valid: boolean; checks: CheckResult[]; header?: Record<string, unknown> }> {
  const checks: CheckResult[] = []
  const done = (header?: Record<string, unknown>) => ({
    valid: checks.every((c) => c.pass),
    checks,
    ...(header ? { header } : {}),
  })
  if (!signature) {
    checks.push(
      check(
        'x-jws-signature present',
        false,
        'a detached JWS header..signature',
        'absent',
        'the bank signs PIS responses; a missing signature means the response cannot be trusted',
      ),
    )
    return done()
  }
  const read = readDetached(signature)
  if ('problem' in read) {
    checks.push(
      check(
        'x-jws-signature format',
        false,
        'header..signature (detached, empty payload part)',
        read.problem,
        'the signature must be a detached compact JWS',
      ),
    )
    return done()
  }
  const { parts, header } = read
  checks.push(check('x-jws-signature format', true, 'header..signature', 'detached compact JWS'))
  checks.push(...headerFormChecks(header))
  const jwk = findJwk(options.jwks, header.kid as string | undefined)
  checks.push(
    check(
      'kid',
      Boolean(jwk),
      `a kid of the JWKS (${jwksKids(options.jwks)})`,
      header.kid,
      "the signer's key is not in this JWKS: refresh the JWKS or check which key signed",
    ),
  )
  checks.push(...obClaimChecks(header, options))
  checks.push(await signatureCheck(parts, body, header.alg === 'PS256' && Boolean(jwk), options.jwks))
  return done(header)
}
