import { compactVerify, createLocalJWKSet, importJWK, importSPKI, importX509, type JSONWebKeySet, type JWK } from 'jose'
import type { JwtVerifyInput } from '../contract/api.ts'
import type { CheckResult } from '../contract/checks.ts'
import type { DecodedJwtDto } from '../contract/jwt.ts'
import { parseSoftwareStatement } from '../certificates/software-statement.ts'
import { AppError } from '../core/app-error.ts'
import type { Clock } from '../core/clock.ts'
import { check, show } from '../signing/check.ts'
import { validateIdToken } from '../signing/id-token.ts'
import { decodeJwt } from '../signing/jwt-decode.ts'
import { registrationJwtChecks } from './registration-jwt-rules.ts'

/** Fetches a JWKS (through the HTTP engine, so the exchange is logged under `label`). */
export type JwksFetcher = (source: {
  jwksUrl?: string
  environmentId?: string
  label?: string
}) => Promise<JSONWebKeySet>

/** The public signing key of a TPP identity of the console, with the words that name it; undefined when it has none. */
export type IdentityKeyLookup = (
  tppId: string,
) => { jwk: Record<string, unknown>; name: string; kid: string } | undefined

/** What a signature is checked with: one key, or a key set that picks the key by the token's header. */
type VerifyKey =
  Exclude<Parameters<typeof compactVerify>[1], (...args: never[]) => unknown> | ReturnType<typeof createLocalJWKSet>

async function keyFrom(
  input: JwtVerifyInput,
  alg: string,
  fetchJwks: JwksFetcher,
  identityKey?: IdentityKeyLookup,
): Promise<{ key?: VerifyKey; jwks?: JSONWebKeySet; source: string }> {
  const k = input.key
  if (!k) return { source: 'no key given' }
  if (k.tppId) {
    const held = identityKey?.(k.tppId)
    if (!held)
      throw new AppError('NOT_FOUND', {
        what: 'The identity has no signing key to verify with.',
        cause: `The console holds no signing key for the identity ${k.tppId}.`,
        fix: 'Pick an identity with a signing key (Keys & CSRs, or import one), or paste the key.',
      })
    return {
      key: await importJWK(held.jwk as JWK, alg),
      source: `the signing key of ${held.name} (kid ${held.kid})`,
    }
  }
  if (k.jwk) return { key: await importJWK(k.jwk as JWK, alg), source: 'the pasted JWK' }
  if (k.pem) {
    const pem = k.pem.trim()
    if (pem.includes('BEGIN CERTIFICATE')) return { key: await importX509(pem, alg), source: 'the pasted certificate' }
    if (pem.includes('BEGIN PUBLIC KEY')) return { key: await importSPKI(pem, alg), source: 'the pasted public key' }
    throw new AppError('KEY_INVALID', {
      what: 'The pasted key cannot verify signatures.',
      cause: pem.includes('PRIVATE KEY')
        ? 'It is a private key: the debugger never takes private keys.'
        : 'It is neither a certificate nor a public key.',
      fix: 'Paste the PUBLIC KEY or CERTIFICATE PEM, or a public JWK.',
    })
  }
  const jwks = await fetchJwks({
    ...(k.jwksUrl ? { jwksUrl: k.jwksUrl } : {}),
    ...(k.environmentId ? { environmentId: k.environmentId } : {}),
  })
  return {
    key: createLocalJWKSet(jwks),
    jwks,
    source: k.jwksUrl ? `the JWKS at ${k.jwksUrl}` : "the environment's JWKS",
  }
}

function requestObjectChecks(
  claims: Record<string, unknown>,
  expected: Record<string, string>,
  now: number,
): CheckResult[] {
  const exp = claims.exp as number | undefined
  const nbf = claims.nbf as number | undefined
  const intent = (claims.claims as { id_token?: { openbanking_intent_id?: { value?: unknown } } } | undefined)?.id_token
    ?.openbanking_intent_id?.value
  return [
    check(
      'iss = client_id',
      typeof claims.iss === 'string' && claims.iss === claims.client_id,
      claims.client_id,
      claims.iss,
    ),
    check(
      'aud',
      expected.issuer ? claims.aud === expected.issuer : typeof claims.aud === 'string',
      expected.issuer ?? 'the authorisation server issuer',
      claims.aud,
      'aud is the issuer of the discovery document',
    ),
    check('response_type', claims.response_type === 'code id_token', 'code id_token', claims.response_type),
    check(
      'redirect_uri',
      typeof claims.redirect_uri === 'string' &&
        (!expected.redirectUri || claims.redirect_uri === expected.redirectUri),
      expected.redirectUri ?? 'a registered redirect URI',
      claims.redirect_uri,
    ),
    check(
      'scope',
      typeof claims.scope === 'string' && claims.scope.split(' ').includes('openid'),
      'openid accounts | openid payments',
      claims.scope,
    ),
    check('state', typeof claims.state === 'string' && claims.state.length > 0, 'present', claims.state),
    check(
      'nonce',
      typeof claims.nonce === 'string' && claims.nonce.length > 0,
      'present',
      claims.nonce,
      'nonce is required with openid',
    ),
    check(
      'exp',
      typeof exp === 'number' && exp > now,
      `after now (${now})`,
      exp,
      'the request object has expired: make a new one',
    ),
    check(
      'nbf',
      typeof nbf === 'number' && nbf <= now + 60 && nbf >= now - 3600,
      'at most 60 minutes in the past',
      nbf,
    ),
    check(
      'exp - nbf',
      typeof exp === 'number' && typeof nbf === 'number' && exp - nbf <= 3600,
      'at most 3600 s',
      typeof exp === 'number' && typeof nbf === 'number' ? exp - nbf : 'absent',
    ),
    check(
      'openbanking_intent_id',
      typeof intent === 'string' && (!expected.consentId || intent === expected.consentId),
      expected.consentId ?? 'the ConsentId',
      intent,
    ),
  ]
}

const iso = (seconds: unknown) => (typeof seconds === 'number' ? new Date(seconds * 1000).toISOString() : seconds)

/** RFC 7523 client authentication (private_key_jwt) as the bank's token endpoint checks it. */
function clientAssertionChecks(
  header: Record<string, unknown>,
  claims: Record<string, unknown>,
  expected: Record<string, string>,
  now: number,
): CheckResult[] {
  const { iss, sub, aud, exp, iat, jti } = claims
  const audiences = Array.isArray(aud) ? aud : [aud]
  const wanted = [expected.tokenEndpoint, expected.issuer].filter((v): v is string => !!v)
  return [
    check('header alg', header.alg === 'PS256', 'PS256 (token_endpoint_auth_signing_alg)', header.alg),
    check(
      'header kid',
      typeof header.kid === 'string' && header.kid !== '',
      'the signing key id',
      header.kid,
      "the bank finds the key on the software statement's JWKS by kid",
    ),
    check(
      'iss',
      typeof iss === 'string' && (!expected.clientId || iss === expected.clientId),
      expected.clientId ?? 'the client_id',
      iss,
      'iss is the client_id the bank issued at registration',
    ),
    check('sub = iss', typeof sub === 'string' && sub === iss, iss, sub, 'RFC 7523: sub is the client_id too'),
    check(
      'aud',
      wanted.length
        ? audiences.some((a) => wanted.includes(a as string))
        : audiences.some((a) => typeof a === 'string' && a !== ''),
      wanted.join(' or ') || 'the token endpoint',
      aud,
      'aud is the token endpoint the assertion is sent to',
    ),
    check(
      'jti',
      typeof jti === 'string' && jti !== '',
      'a unique id',
      jti,
      'the bank refuses an assertion whose jti it has seen',
    ),
    check(
      'exp',
      typeof exp === 'number' && exp > now,
      `after ${iso(now)}`,
      iso(exp),
      'the assertion had expired when it was sent: make one per request',
    ),
    check('iat', typeof iat === 'number' && iat <= now + 60, `not after ${iso(now)} (60 s skew)`, iso(iat)),
    check(
      'exp - iat',
      typeof exp === 'number' && typeof iat === 'number' && exp - iat > 0 && exp - iat <= 3600,
      'at most 3600 s (300 s is usual)',
      typeof exp === 'number' && typeof iat === 'number' ? exp - iat : 'absent',
    ),
  ]
}

/** A software statement (SSA) as a bank reads it at registration: signed by the directory, with the TPP's ids, roles and redirect URIs. */
function softwareStatementChecks(
  token: string,
  header: Record<string, unknown>,
  claims: Record<string, unknown>,
  now: number,
): CheckResult[] {
  const { problems } = parseSoftwareStatement(token)
  const about = (name: string) => problems.find((p) => p.startsWith(name))
  const member = (name: string, expected: string) =>
    check(name, !about(name), expected, about(name) ?? show(claims[name]))
  return [
    check('header alg', header.alg === 'PS256', 'PS256', header.alg),
    check('header kid', typeof header.kid === 'string' && header.kid !== '', "the directory's key id", header.kid),
    check('iss', typeof claims.iss === 'string' && claims.iss !== '', 'the directory that issued it', claims.iss),
    check('iat', typeof claims.iat === 'number' && claims.iat <= now + 60, `not after ${iso(now)}`, iso(claims.iat)),
    member('software_id', 'present: the registration iss equals it'),
    member('org_id', 'present'),
    member('software_roles', 'AISP, PISP and/or CBPII'),
    member('software_redirect_uris', 'at least one redirect URI'),
    member('org_status', 'Active (or absent)'),
  ]
}

/** An ID token's checks (signature, issuance, binding) with the bank's keys: a JWKS or the pasted JWK. */
async function idTokenChecks(
  input: JwtVerifyInput,
  alg: string,
  expected: NonNullable<JwtVerifyInput['expected']>,
  now: number,
  fetchJwks: JwksFetcher,
): Promise<CheckResult[]> {
  const { jwks } = await keyFrom({ ...input, key: input.key ?? {} }, alg === 'none' ? 'PS256' : alg, fetchJwks).catch(
    (e) => {
      throw e
    },
  )
  const keys = jwks ?? (input.key?.jwk ? { keys: [input.key.jwk as JWK] } : undefined)
  if (!keys)
    throw new AppError('INVALID_INPUT', {
      what: "ID token checks need the bank's keys.",
      cause: 'No JWKS URL, environment or JWK was given.',
      fix: 'Pick the environment (its discovery jwks_uri) or paste the JWKS URL.',
    })
  const result = await validateIdToken(input.token, {
    jwks: keys,
    issuer: expected.issuer ?? '',
    clientId: expected.clientId ?? '',
    nonce: expected.nonce ?? '',
    ...(expected.code ? { code: expected.code } : {}),
    ...(expected.state ? { state: expected.state } : {}),
    ...(expected.consentId ? { consentId: expected.consentId } : {}),
    now,
  })
  return result.checks
}

/** The signature's check with the key given (none: no check; alg none: a failed one). */
async function signatureChecks(
  input: JwtVerifyInput,
  alg: string,
  fetchJwks: JwksFetcher,
  identityKey: IdentityKeyLookup | undefined,
): Promise<CheckResult[]> {
  const checks: CheckResult[] = []
  if (alg === 'none') {
    checks.push(
      check(
        'signature',
        false,
        'a signed JWT',
        'alg none (unsigned)',
        "only the bank's permissive sandbox accepts unsigned request objects; production needs PS256",
      ),
    )
  } else if (input.key) {
    try {
      const { key, source } = await keyFrom(input, alg, fetchJwks, identityKey)
      try {
        const token = input.token.trim()
        await (typeof key === 'function' ? compactVerify(token, key) : compactVerify(token, key!))
        checks.push(check('signature', true, `valid with ${source}`, 'valid'))
      } catch (err) {
        checks.push(
          check(
            'signature',
            false,
            `valid with ${source}`,
            (err as { code?: string }).code === 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED'
              ? 'does not match: the token was changed, or another key signed it'
              : (err as Error).message,
            'check the kid and the key; a changed header or payload breaks the signature',
          ),
        )
      }
    } catch (err) {
      if (err instanceof AppError) throw err
      checks.push(
        check('signature', false, 'a usable key', (err as Error).message, "the key type must fit the token's alg"),
      )
    }
  }
  return checks
}

/**
 * The JWT debugger: decode, verify the signature against a key, a JWKS URL or the environment's JWKS, and check a
 * rule set (registration, request object, ID token, client assertion, software statement). Times are judged
 * at `expected.at` when given (the inspector's exchange time), else now.
 */
export async function verifyJwt(
  input: JwtVerifyInput,
  fetchJwks: JwksFetcher,
  clock: Clock,
  identityKey?: IdentityKeyLookup,
): Promise<{ decoded: DecodedJwtDto; checks: CheckResult[] }> {
  const decoded = decodeJwt(input.token)
  const expected = input.expected ?? {}
  const at = Number(expected.at)
  const now = expected.at && Number.isFinite(at) ? at : clock.epochSeconds()
  const alg = String(decoded.header.alg ?? '')
  const checks: CheckResult[] = []

  if (input.rules === 'id-token') {
    const idChecks = await idTokenChecks(input, alg, expected, now, fetchJwks)
    return { decoded: { ...decoded, checks: idChecks }, checks: idChecks }
  }
  checks.push(...(await signatureChecks(input, alg, fetchJwks, identityKey)))

  if (input.rules === 'registration') {
    checks.push(...registrationJwtChecks(decoded, expected, now))
  } else if (input.rules === 'request-object') {
    checks.push(...requestObjectChecks(decoded.claims ?? {}, expected, now))
  } else if (input.rules === 'client-assertion') {
    checks.push(...clientAssertionChecks(decoded.header, decoded.claims ?? {}, expected, now))
  } else if (input.rules === 'software-statement') {
    checks.push(...softwareStatementChecks(input.token.trim(), decoded.header, decoded.claims ?? {}, now))
  }
  return { decoded: { ...decoded, checks }, checks }
}
