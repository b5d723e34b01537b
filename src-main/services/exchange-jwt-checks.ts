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
  const text = part === 'fragment' ? (hash >= 0 ? url.slice(hash + 1) : '') : query >= 0 ? url.slice(query + 1, hash > query ? hash : undefined) : ''
  return new URLSearchParams(text).get(name) ?? undefined
}
const header = (x: ExchangeDto, side: 'request' | 'response', name: string) => (side === 'request' ? x.request.headers : x.response?.headers ?? []).find(([k]) => k.toLowerCase() === name)?.[1]
const withoutQuery = (url: string) => url.split(/[?#]/)[0]!

/** The request object this flow sent before the exchange (its nonce and intent), from the log. */
function lastRequestObject(earlier: ExchangeDto[]): Record<string, unknown> | undefined {
  for (const x of earlier) {
    const found = x.jwts.find((j) => jwtRoleOf({ location: j.location, method: x.request.method, url: x.request.url, ...(j.claims ? { claims: j.claims } : {}) }).role === 'request-object')
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

const tppJwk = (tpp: NonNullable<JwtCheckSources['tpp']>): JWK => ({ ...tpp.publicJwk, kid: tpp.kid } as JWK)
const noTppKey = (what: string) => new AppError('NOT_FOUND', { what: `The ${what} cannot be verified.`, cause: 'The TPP identity that made this exchange is unknown now, or has no signing key.', fix: 'Import the signing key into the TPP identity, or verify the JWT in the JWT debugger with the public key.' })

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
  const bankJwksUrl = async () => {
    const uri = (await bank()).jwks_uri
    if (!uri) throw new AppError('HTTP_ERROR', { what: 'The bank\'s keys cannot be read.', cause: 'Its discovery document has no jwks_uri.', fix: 'Check the environment\'s auth URL; discovery must name jwks_uri.' })
    return uri
  }
  const debug = async (input: JwtVerifyInput) => (await verifyJwt(input, src.fetchJwks, src.clock)).checks

  const reports: JwtCheckReportDto[] = []
  for (const [index, jwt] of x.jwts.entries()) {
    const { role, label } = jwtRoleOf({ location: jwt.location, method: x.request.method, url: x.request.url, ...(jwt.claims ? { claims: jwt.claims } : {}) })
    const report: JwtCheckReportDto = { index, location: jwt.location, role, roleLabel: label, keySource: 'none', rules: ROLE_RULES[role].rules, checks: [] }
    reports.push(report)
    const token = jwt.compact
    const tppKey = () => {
      if (!src.tpp) throw noTppKey(ROLE_RULES[role].words)
      report.keySource = `the TPP's public signing key (kid ${src.tpp.kid})`
      return { jwk: tppJwk(src.tpp) as Record<string, unknown> }
    }
    try {
      if (jwt.error) throw new AppError('JWT_MALFORMED', { what: `The JWT at ${jwt.location} cannot be decoded.`, cause: jwt.error, fix: 'Nothing to check: it is not a well-formed JWT.' })
      switch (role) {
        case 'registration':
          report.checks = await debug({ token, key: tppKey(), rules: 'registration', expected: { at, ...(src.environment ? { authUrl: src.environment.authUrl, environmentKind: src.environment.kind } : {}) } })
          break
        case 'software-statement':
          if (src.directoryJwksUrl) {
            report.keySource = `the directory's JWKS at ${src.directoryJwksUrl}`
            report.checks = await debug({ token, key: { jwksUrl: src.directoryJwksUrl }, rules: 'software-statement', expected: { at } })
          } else {
            report.keySource = 'none: the directory\'s JWKS is not known for this environment'
            report.checks = [check('signature', true, 'valid with the directory\'s JWKS', 'not verified here', 'the bank verifies it against its directory; verify it in the JWT debugger with the directory\'s JWKS URL', 'warning'), ...await debug({ token, rules: 'software-statement', expected: { at } })]
          }
          break
        case 'request-object': {
          const d = await bank().catch(() => ({}) as BankDiscovery)
          const redirectUri = param(x.request.url, 'redirect_uri')
          report.checks = await debug({ token, key: tppKey(), rules: 'request-object', expected: { at, ...(d.issuer ? { issuer: d.issuer } : {}), ...(redirectUri ? { redirectUri } : {}) } })
          break
        }
        case 'client-assertion': {
          const d = await bank().catch(() => ({}) as BankDiscovery)
          report.checks = await debug({ token, key: tppKey(), rules: 'client-assertion', expected: { at, tokenEndpoint: withoutQuery(x.request.url), ...(d.issuer ? { issuer: d.issuer } : {}), ...(src.clientId ? { clientId: src.clientId } : {}) } })
          break
        }
        case 'id-token': {
          const d = await bank()
          const uri = await bankJwksUrl()
          report.keySource = `the bank's JWKS at ${uri}`
          const requested = lastRequestObject(src.earlierOfFlow())
          const nonce = typeof requested?.nonce === 'string' ? requested.nonce : undefined
          const intent = (requested?.claims as { id_token?: { openbanking_intent_id?: { value?: unknown } } } | undefined)?.id_token?.openbanking_intent_id?.value
          const fromRedirect = jwt.location.includes('location')
          const location = fromRedirect ? header(x, 'response', 'location') ?? '' : ''
          const code = fromRedirect ? param(location, 'code', 'fragment') ?? param(location, 'code') : undefined
          const state = fromRedirect ? param(location, 'state', 'fragment') ?? param(location, 'state') : undefined
          const checks = await debug({
            token, key: { jwksUrl: uri }, rules: 'id-token',
            expected: { at, issuer: d.issuer ?? '', clientId: src.clientId ?? '', nonce: nonce ?? '', ...(code ? { code } : {}), ...(state ? { state } : {}), ...(typeof intent === 'string' ? { consentId: intent } : {}) },
          })
          report.checks = checks.map((c): CheckResult => {
            if (c.name === 'nonce' && nonce === undefined) return check('nonce', true, 'the nonce of the request object', c.actual, 'the request object of this authorisation is not in the exchange log (the PSU\'s browser sent it), so the nonce was not compared', 'warning')
            if (c.name === 'aud' && !src.clientId) return check('aud', true, 'the client id', c.actual, 'the client of this exchange is not known, so aud was not compared', 'warning')
            return c
          })
          break
        }
        case 'tpp-jws-signature':
        case 'bank-jws-signature': {
          const side = role === 'tpp-jws-signature' ? 'request' : 'response'
          const body = signedBody(x, side)
          if (body === undefined) throw new AppError('NOT_FOUND', { what: `The ${side} body this signature covers is not kept whole.`, cause: 'The exchange log cut or dropped it (its byte budget went to newer exchanges).', fix: 'Re-run the step to check its signature.' })
          let jwks: JSONWebKeySet
          let expectedIss: string | undefined
          if (side === 'request') {
            jwks = { keys: [tppJwk(src.tpp ?? (() => { throw noTppKey('x-jws-signature') })())] }
            report.keySource = `the TPP's public signing key (kid ${src.tpp!.kid})`
            if (src.tpp!.orgId && src.tpp!.softwareId) expectedIss = `${src.tpp!.orgId}/${src.tpp!.softwareId}`
          } else {
            const uri = await bankJwksUrl()
            jwks = await src.fetchJwks({ jwksUrl: uri })
            report.keySource = `the bank's JWKS at ${uri}`
          }
          report.checks = (await verifyDetachedJws(token, body, { jwks, now: Number(at), ...(expectedIss ? { expectedIss } : {}) })).checks
          break
        }
        case 'access-token': {
          const uri = await bankJwksUrl()
          report.keySource = `the bank's JWKS at ${uri}`
          report.checks = await debug({ token, key: { jwksUrl: uri }, rules: 'none', expected: { at } })
          const exp = jwt.claims?.exp
          report.checks.push(check('exp', typeof exp === 'number' && exp > Number(at), `after the exchange (${new Date(Number(at) * 1000).toISOString()})`, typeof exp === 'number' ? new Date(exp * 1000).toISOString() : exp, 'the token had expired when it was sent: get a new one'))
          break
        }
        default:
          report.keySource = 'none: no key is known for a JWT of no known role'
      }
    } catch (err) {
      report.error = (isAppError(err) ? err : new AppError('INTERNAL', { what: `Checking the JWT at ${jwt.location} failed.`, cause: (err as Error)?.message ?? String(err), fix: 'Verify it in the JWT debugger; report this if it persists.' })).toData()
    }
  }
  return reports
}
