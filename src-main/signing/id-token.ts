import { createHash } from 'node:crypto'
import { compactVerify, type JSONWebKeySet } from 'jose'
import type { CheckResult } from '../contract/checks.ts'
import { decodeJwtParts } from '../core/jwt-parts.ts'
import { check } from './check.ts'
import { findJwk, jwksKids, jwksResolver } from './jwks.ts'

/** `c_hash` / `s_hash` / `at_hash` for a SHA-256 algorithm (PS256, ES256, RS256): base64url of the left half of SHA-256. */
export function halfHash(value: string): string {
  const digest = createHash('sha256').update(value, 'ascii').digest()
  return digest.subarray(0, digest.length / 2).toString('base64url')
}

export interface IdTokenExpectations {
  /** The AS JWKS (from the discovery `jwks_uri`). */
  jwks: JSONWebKeySet
  /** The discovery `issuer`. */
  issuer: string
  clientId: string
  /** The nonce sent in the request object. */
  nonce: string
  /** The authorisation code that came with the ID token (checks c_hash). */
  code?: string
  /** The state that came back with it (checks s_hash). */
  state?: string
  /** The ConsentId authorised (checks openbanking_intent_id). */
  consentId?: string
  /** Seconds since the epoch. */
  now: number
  clockSkewSeconds?: number
  /** The server's time (HTTP `Date` of the response), to say how far the clocks are apart. */
  serverTime?: number
}

function skewHint(now: number, serverTime: number | undefined): string {
  if (serverTime === undefined)
    return "if the token is fresh, this computer's clock may be wrong: compare it with the Date header of the bank's responses"
  const delta = now - serverTime
  if (Math.abs(delta) < 5) return 'the clocks agree (within 5 s): the token really is outside its validity'
  return `this computer's clock is ${Math.abs(delta)} s ${delta > 0 ? 'ahead of' : 'behind'} the bank's (from its Date header): correct the clock`
}

/** The signature: alg PS256, a kid of the AS JWKS, and the token verified with that key. */
async function signatureChecks(
  idToken: string,
  header: Record<string, unknown>,
  expect: IdTokenExpectations,
): Promise<CheckResult[]> {
  const checks: CheckResult[] = []
  checks.push(
    check(
      'alg',
      header.alg === 'PS256',
      'PS256 (id_token_signed_response_alg)',
      header.alg,
      header.alg === 'none' ? 'an unsigned ID token proves nothing: the bank must sign it' : undefined,
    ),
  )
  const jwk = findJwk(expect.jwks, header.kid as string | undefined)
  checks.push(
    check(
      'kid',
      Boolean(jwk),
      `a kid of the AS JWKS (${jwksKids(expect.jwks)})`,
      header.kid,
      'refresh the JWKS from the discovery jwks_uri; the bank may have rotated its keys',
    ),
  )
  if (header.alg === 'PS256' && jwk) {
    try {
      await compactVerify(idToken, jwksResolver(expect.jwks), { algorithms: ['PS256'] })
      checks.push(check('signature', true, 'valid with the AS key', 'valid'))
    } catch (err) {
      checks.push(
        check(
          'signature',
          false,
          'valid with the AS key',
          (err as { code?: string }).code ?? (err as Error).message,
          'the token was altered or signed by another key',
        ),
      )
    }
  } else {
    checks.push(check('signature', false, 'valid with the AS key', 'not verified (alg or kid unusable)'))
  }
  return checks
}

/** Who issued the token to whom (iss, aud) and when it is valid (exp, iat, with the clock-skew hint). */
function issuedChecks(claims: Record<string, unknown>, expect: IdTokenExpectations): CheckResult[] {
  const checks: CheckResult[] = []
  const skew = expect.clockSkewSeconds ?? 60
  const now = expect.now
  checks.push(
    check(
      'iss',
      claims.iss === expect.issuer,
      expect.issuer,
      claims.iss,
      'the token comes from another issuer than the discovery document says',
    ),
  )
  const aud = claims.aud
  const audiences = Array.isArray(aud) ? aud : [aud]
  const audOk = audiences.includes(expect.clientId) && (audiences.length === 1 || claims.azp === expect.clientId)
  checks.push(check('aud', audOk, expect.clientId, aud, 'the token was issued to another client'))
  const exp = claims.exp
  checks.push(
    check(
      'exp',
      typeof exp === 'number' && exp + skew > now,
      `after now (${new Date(now * 1000).toISOString()}, ${skew} s skew allowed)`,
      typeof exp === 'number' ? new Date(exp * 1000).toISOString() : exp,
      skewHint(now, expect.serverTime),
    ),
  )
  const iat = claims.iat
  checks.push(
    check(
      'iat',
      typeof iat === 'number' && iat <= now + skew,
      `not after now (${new Date(now * 1000).toISOString()}, ${skew} s skew allowed)`,
      typeof iat === 'number' ? new Date(iat * 1000).toISOString() : iat,
      skewHint(now, expect.serverTime),
    ),
  )
  return checks
}

/** What binds the token to this authorisation: nonce, c_hash, s_hash, openbanking_intent_id. */
function bindingChecks(claims: Record<string, unknown>, expect: IdTokenExpectations): CheckResult[] {
  const checks: CheckResult[] = []
  checks.push(
    check(
      'nonce',
      claims.nonce === expect.nonce,
      expect.nonce,
      claims.nonce,
      'the ID token answers another authorisation request (or was replayed)',
    ),
  )
  if (expect.code !== undefined) {
    const want = halfHash(expect.code)
    checks.push(
      check(
        'c_hash',
        claims.c_hash === want,
        want,
        claims.c_hash,
        claims.c_hash === undefined
          ? 'FAPI requires c_hash in the hybrid flow'
          : 'the code was swapped: it is not the one this ID token was issued with',
      ),
    )
  }
  if (expect.state !== undefined) {
    const want = halfHash(expect.state)
    checks.push(
      check(
        's_hash',
        claims.s_hash === want,
        want,
        claims.s_hash,
        claims.s_hash === undefined
          ? 'FAPI requires s_hash in the hybrid flow'
          : 'the state was swapped: it is not the one this ID token was issued with',
      ),
    )
  }
  if (expect.consentId !== undefined) {
    checks.push(
      check(
        'openbanking_intent_id',
        claims.openbanking_intent_id === expect.consentId,
        expect.consentId,
        claims.openbanking_intent_id,
        'the PSU authorised another consent than the one requested',
      ),
    )
  }
  return checks
}

/**
 * Validates an ID token of the hybrid flow, each rule a separate check (reference section 5 "Client
 * checks", FAPI 5.2.2.1): signature against the JWKS (PS256, kid), iss, aud, exp and iat (with a
 * clock-skew hint), nonce, c_hash, s_hash, openbanking_intent_id. Never throws on a bad token: every
 * problem is a failed check.
 *
 * @example const { valid, checks } = await validateIdToken(fragment.id_token, { jwks, issuer, clientId, nonce, code, state, consentId, now })
 */
export async function validateIdToken(
  idToken: string,
  expect: IdTokenExpectations,
): Promise<{
  valid: boolean
  checks: CheckResult[]
  header?: Record<string, unknown>
  claims?: Record<string, unknown>
}> {
  const checks: CheckResult[] = []
  let header: Record<string, unknown>
  let claims: Record<string, unknown>
  try {
    const parts = decodeJwtParts(idToken)
    if (!parts.claims) throw new Error('its payload is not a JSON object')
    header = parts.header
    claims = parts.claims
  } catch (err) {
    checks.push(check('format', false, 'a signed JWT', (err as Error).message))
    return { valid: false, checks }
  }
  checks.push(...(await signatureChecks(idToken, header, expect)))
  checks.push(...issuedChecks(claims, expect))
  checks.push(...bindingChecks(claims, expect))
  return { valid: checks.every((c) => c.pass), checks, header, claims }
}
