import type { JSONWebKeySet, JWK } from 'jose'
import type { JwtVerifyInput } from '../contract/api.ts'
import type { CheckResult } from '../contract/checks.ts'
import type { JwtCheckReportDto } from '../contract/diagnosis.ts'
import type { EnvironmentDto } from '../contract/environments.ts'
import type { ExchangeDto } from '../contract/exchange.ts'
import { AppError, isAppError } from '../core/app-error.ts'
import type { Clock } from '../core/clock.ts'
import { check } from '../signing/check.ts'
import { verifyDetachedJws } from '../signing/detached-jws.ts'
import { verifyJwt, type JwksFetcher } from './jwt-debugger.ts'
import { jwtRoleOf, ROLE_RULES } from './jwt-roles.ts'
import { headerValue } from '../core/header-lookup.ts'

/** The bank's discovery document, as far as the checks read it. */
export interface BankDiscovery {
  issuer?: string
  jwks_uri?: string
  token_endpoint?: string
}

/** What the checks of one exchange's JWTs need: the exchange as recorded and where each key comes from. */
export interface JwtCheckSources {
  /** The exchange as recorded (main side only: its JWTs unmasked). */
  exchange: ExchangeDto
  environment?: EnvironmentDto
  /** The TPP that made it: its public signing key and its ids (the `iss` of its x-jws-signature). */
  tpp?: { kid: string; publicJwk: Record<string, unknown>; orgId?: string; softwareId?: string }
  /** The client of the flow that made it. */
  clientId?: string
  /** The JWKS of the directory that signs software statements, when known (the local sandbox's directory). */
  directoryJwksUrl?: string
  /** The exchanges of the same flow made before this one, as recorded, newest first. */
  earlierOfFlow: () => ExchangeDto[]
  discovery: () => Promise<BankDiscovery>
  fetchJwks: JwksFetcher
  clock: Clock
}

const param = (url: string, name: string, part: 'query' | 'fragment' = 'query'): string | undefined => {
  const hash = url.indexOf('#')
  const query = url.indexOf('?')
  const text =
    part === 'fragment'
      ? hash >= 0
        ? url.slice(hash + 1)
        : ''
      : query >= 0
        ? url.slice(query + 1, hash > query ? hash : undefined)
        : ''
  return new URLSearchParams(text).get(name) ?? undefined
}
const withoutQuery = (url: string) => url.split(/[?#]/)[0]!
const iso = (seconds: number) => new Date(seconds * 1000).toISOString()
const roleOf = (x: ExchangeDto, j: ExchangeDto['jwts'][number]) =>
  jwtRoleOf({
    location: j.location,
    method: x.request.method,
    url: x.request.url,
    ...(j.claims ? { claims: j.claims } : {}),
  })

/** The request object this flow sent before the exchange (its nonce and intent), from the log. */
function lastRequestObject(earlier: ExchangeDto[]): Record<string, unknown> | undefined {
  for (const x of earlier) {
    const found = x.jwts.find((j) => roleOf(x, j).role === 'request-object')
    if (found?.claims) return found.claims
  }
  return undefined
}

/** The body a detached signature covers, as sent or received; undefined when the log no longer keeps it whole. */
function signedBody(x: ExchangeDto, side: 'request' | 'response'): string | undefined {
  const body = side === 'request' ? x.request.body : x.response?.body
  if (!body) return ''
  if (body.dropped || body.truncated) return undefined
  return body.encoding === 'base64' ? Buffer.from(body.text, 'base64').toString('latin1') : body.text
}

const tppJwk = (tpp: NonNullable<JwtCheckSources['tpp']>): JWK => ({ ...tpp.publicJwk, kid: tpp.kid }) as JWK
const noTppKey = (what: string) =>
  new AppError('NOT_FOUND', {
    what: `The ${what} cannot be verified.`,
    cause: 'The TPP identity that made this exchange is unknown now, or has no signing key.',
    fix: 'Import the signing key into the TPP identity, or verify the JWT in the JWT debugger with the public key.',
  })
const warning = (name: string, expected: string, actual: string, hint: string) =>
  check(name, true, expected, actual, hint, 'warning')

/** What checking one JWT needs: its exchange, sources, the time of the exchange, and where to note the key used. */
interface OneJwt {
  x: ExchangeDto
  src: JwtCheckSources
  jwt: ExchangeDto['jwts'][number]
  /** The exchange's time, seconds since the epoch, as `verifyJwt`'s `expected.at`. */
  at: string
  bank: () => Promise<BankDiscovery>
  report: JwtCheckReportDto
}

async function debug(one: OneJwt, input: Omit<JwtVerifyInput, 'token'>): Promise<CheckResult[]> {
  return (await verifyJwt({ ...input, token: one.jwt.compact }, one.src.fetchJwks, one.src.clock)).checks
}

function tppKey(one: OneJwt): { jwk: Record<string, unknown> } {
  const tpp = one.src.tpp
  if (!tpp) throw noTppKey(ROLE_RULES[one.report.role].words)
  one.report.keySource = `the TPP's public signing key (kid ${tpp.kid})`
  return { jwk: tppJwk(tpp) as Record<string, unknown> }
}

async function bankJwksUrl(one: OneJwt): Promise<string> {
  const uri = (await one.bank()).jwks_uri
  if (!uri) {
    const fix = "Check the environment's auth URL; discovery must name jwks_uri."
    throw new AppError('HTTP_ERROR', {
      what: "The bank's keys cannot be read.",
      cause: 'Its discovery document has no jwks_uri.',
      fix,
    })
  }
  one.report.keySource = `the bank's JWKS at ${uri}`
  return uri
}

/** The issuer from discovery when it can be read (a rule compares with it), else nothing to compare with. */
const issuer = async (one: OneJwt): Promise<Record<string, string>> => {
  const d = await one.bank().catch(() => ({}) as BankDiscovery)
  return d.issuer ? { issuer: d.issuer } : {}
}

async function softwareStatement(one: OneJwt): Promise<CheckResult[]> {
  const url = one.src.directoryJwksUrl
  if (url) {
    one.report.keySource = `the directory's JWKS at ${url}`
    return debug(one, { key: { jwksUrl: url }, rules: 'software-statement', expected: { at: one.at } })
  }
  one.report.keySource = "none: the directory's JWKS is not known for this environment"
  const unverified = warning(
    'signature',
    "valid with the directory's JWKS",
    'not verified here',
    "the bank verifies it against its directory; verify it in the JWT debugger with the directory's JWKS URL",
  )
  return [unverified, ...(await debug(one, { rules: 'software-statement', expected: { at: one.at } }))]
}

async function idToken(one: OneJwt): Promise<CheckResult[]> {
  const { x, src, jwt } = one
  const d = await one.bank()
  const uri = await bankJwksUrl(one)
  const requested = lastRequestObject(src.earlierOfFlow())
  const nonce = typeof requested?.nonce === 'string' ? requested.nonce : undefined
  const intent = (requested?.claims as { id_token?: { openbanking_intent_id?: { value?: unknown } } } | undefined)
    ?.id_token?.openbanking_intent_id?.value
  // The ID token of a redirect comes with its code and state (c_hash, s_hash); the token answer's does not.
  const redirect = headerValue(x.response?.headers, 'location') ?? ''
  const location = jwt.location.includes('location') ? redirect : ''
  const code = location ? (param(location, 'code', 'fragment') ?? param(location, 'code')) : undefined
  const state = location ? (param(location, 'state', 'fragment') ?? param(location, 'state')) : undefined
  const expected = {
    at: one.at,
    issuer: d.issuer ?? '',
    clientId: src.clientId ?? '',
    nonce: nonce ?? '',
    ...(code ? { code } : {}),
    ...(state ? { state } : {}),
    ...(typeof intent === 'string' ? { consentId: intent } : {}),
  }
  const checks = await debug(one, { key: { jwksUrl: uri }, rules: 'id-token', expected })
  return checks.map((c): CheckResult => {
    if (c.name === 'nonce' && nonce === undefined) {
      return warning(
        'nonce',
        'the nonce of the request object',
        c.actual,
        "the request object of this authorisation is not in the exchange log (the PSU's browser sent it), so the nonce was not compared",
      )
    }
    if (c.name === 'aud' && !src.clientId)
      return warning(
        'aud',
        'the client id',
        c.actual,
        'the client of this exchange is not known, so aud was not compared',
      )
    return c
  })
}

async function detachedSignature(one: OneJwt, side: 'request' | 'response'): Promise<CheckResult[]> {
  const body = signedBody(one.x, side)
  if (body === undefined) {
    throw new AppError('NOT_FOUND', {
      what: `The ${side} body this signature covers is not kept whole.`,
      cause: 'The exchange log cut or dropped it (its byte budget went to newer exchanges).',
      fix: 'Re-run the step to check its signature.',
    })
  }
  const tpp = one.src.tpp
  let jwks: JSONWebKeySet
  let expectedIss: string | undefined
  if (side === 'request') {
    if (!tpp) throw noTppKey('x-jws-signature')
    jwks = { keys: [tppJwk(tpp)] }
    one.report.keySource = `the TPP's public signing key (kid ${tpp.kid})`
    if (tpp.orgId && tpp.softwareId) expectedIss = `${tpp.orgId}/${tpp.softwareId}`
  } else {
    jwks = await one.src.fetchJwks({ jwksUrl: await bankJwksUrl(one) })
  }
  return (
    await verifyDetachedJws(one.jwt.compact, body, {
      jwks,
      now: Number(one.at),
      ...(expectedIss ? { expectedIss } : {}),
    })
  ).checks
}

async function accessToken(one: OneJwt): Promise<CheckResult[]> {
  const checks = await debug(one, { key: { jwksUrl: await bankJwksUrl(one) }, rules: 'none', expected: { at: one.at } })
  const exp = one.jwt.claims?.exp
  const at = Number(one.at)
  const shown = typeof exp === 'number' ? iso(exp) : exp
  const hint = 'the token had expired when it was sent: get a new one'
  return [...checks, check('exp', typeof exp === 'number' && exp > at, `after the exchange (${iso(at)})`, shown, hint)]
}

/** The checks of one JWT by its role; throws (an AppError) when they cannot be made. */
async function checksOf(one: OneJwt): Promise<CheckResult[]> {
  const { src, at } = one
  switch (one.report.role) {
    case 'registration': {
      const env = src.environment
      return debug(one, {
        key: tppKey(one),
        rules: 'registration',
        expected: { at, ...(env ? { authUrl: env.authUrl, environmentKind: env.kind } : {}) },
      })
    }
    case 'software-statement':
      return softwareStatement(one)
    case 'request-object': {
      const redirectUri = param(one.x.request.url, 'redirect_uri')
      return debug(one, {
        key: tppKey(one),
        rules: 'request-object',
        expected: { at, ...(await issuer(one)), ...(redirectUri ? { redirectUri } : {}) },
      })
    }
    case 'client-assertion': {
      const expected = {
        at,
        tokenEndpoint: withoutQuery(one.x.request.url),
        ...(await issuer(one)),
        ...(src.clientId ? { clientId: src.clientId } : {}),
      }
      return debug(one, { key: tppKey(one), rules: 'client-assertion', expected })
    }
    case 'id-token':
      return idToken(one)
    case 'tpp-jws-signature':
      return detachedSignature(one, 'request')
    case 'bank-jws-signature':
      return detachedSignature(one, 'response')
    case 'access-token':
      return accessToken(one)
    default:
      one.report.keySource = 'none: no key is known for a JWT of no known role'
      return []
  }
}

/**
 * Checks every JWT of one exchange as its role asks (`jwtRoleOf`), reusing the JWT debugger's rule sets
 * (`verifyJwt`) and the flows' x-jws-signature verification: the signature against the right key (the
 * directory's JWKS for a software statement; the TPP's public signing key for a registration request,
 * request object, client assertion and the TPP's x-jws-signature; the bank's JWKS, from discovery, for ID
 * tokens, JWT access tokens and the bank's x-jws-signature), then the claims. Times are judged at the moment
 * of the exchange. A JWT whose key cannot be had reports why (`error`), the others are still checked.
 */
export async function checkExchangeJwts(src: JwtCheckSources): Promise<JwtCheckReportDto[]> {
  const x = src.exchange
  const at = String(Math.floor(Date.parse(x.startedAt) / 1000))
  let discovery: Promise<BankDiscovery> | undefined
  const bank = () => (discovery ??= src.discovery())
  const reports: JwtCheckReportDto[] = []
  for (const [index, jwt] of x.jwts.entries()) {
    const { role, label } = roleOf(x, jwt)
    const report: JwtCheckReportDto = {
      index,
      location: jwt.location,
      role,
      roleLabel: label,
      keySource: 'none',
      rules: ROLE_RULES[role].rules,
      checks: [],
    }
    reports.push(report)
    try {
      if (jwt.error) {
        const fix = 'Nothing to check: it is not a well-formed JWT.'
        throw new AppError('JWT_MALFORMED', {
          what: `The JWT at ${jwt.location} cannot be decoded.`,
          cause: jwt.error,
          fix,
        })
      }
      report.checks = await checksOf({ x, src, jwt, at, bank, report })
    } catch (err) {
      const error = isAppError(err)
        ? err
        : new AppError('INTERNAL', {
            what: `Checking the JWT at ${jwt.location} failed.`,
            cause: (err as Error)?.message ?? String(err),
            fix: 'Verify it in the JWT debugger; report this if it persists.',
          })
      report.error = error.toData()
    }
  }
  return reports
}
