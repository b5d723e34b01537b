/**
 * The steps of the P1/P2 journey against the local sandbox, over a small I/O interface so that the floor
 * (undici + jose, `floor-io.ts`) and the by-hand peer (one `curl` or `openssl` process per call,
 * `curl-io.ts`) make exactly the same HTTP calls with the same headers and bodies. `journey.ts` runs
 * them in order; P3 uses the first ones to get an AIS access token.
 */
import { createHash, randomUUID } from 'node:crypto'
import type { JSONWebKeySet } from 'jose'
import type { StarterKit } from '../lib/sandbox-process.ts'

export interface HttpAnswer {
  status: number
  /** Lower-case names. */
  headers: Record<string, string>
  text: string
}

export interface HttpCall {
  method: 'GET' | 'POST'
  url: string
  headers?: Record<string, string>
  body?: string
  /** true: `{base_url}` with the transport certificate (mutual TLS); false: server TLS only (`{auth_url}`). */
  mtls: boolean
}

/** What the journey needs from a client stack. */
export interface JourneyIo {
  /** One HTTP exchange, redirects not followed. */
  http(call: HttpCall): Promise<HttpAnswer>
  /** A compact JWS, PS256 with the software statement's signing key, of `payload` under `header`. */
  sign(header: Record<string, unknown>, payload: string): Promise<string>
  /**
   * Verifies a JWS (compact, or detached with `detachedPayload`) against the bank's JWKS and returns its
   * payload (`{}` for a detached one). Absent when the stack does not verify: the journey then checks none.
   */
  verify?(
    jws: string,
    jwks: JSONWebKeySet,
    opts: { detachedPayload?: string; crit?: string[] },
  ): Promise<Record<string, unknown>>
  close(): Promise<void>
}

export interface SandboxTarget {
  baseUrl: string
  authUrl: string
  kit: StarterKit
}

/** The AIS permissions of the journey: accounts, balances and the full transaction detail. */
export const AIS_PERMISSIONS = [
  'ReadAccountsDetail',
  'ReadBalances',
  'ReadTransactionsDetail',
  'ReadTransactionsCredits',
  'ReadTransactionsDebits',
]
/** The PSU's IP address, sent on data calls: the PSU is present, so the PSU-absent cap does not apply. */
export const PSU_IP = '127.0.0.1'

/**
 * The consent's `TransactionToDateTime` in every journey of a bench run: the start of the day before the
 * run began (UTC). Every transaction up to then is booked for good, so each journey reads the same history
 * however far the sandbox clock has moved (each journey moves it 10 s to settle its payment).
 */
export const HISTORY_TO = new Date(Math.floor(Date.now() / 86_400_000) * 86_400_000 - 86_400_000)
  .toISOString()
  .replace(/\.\d{3}Z$/, '+00:00')
export const OB_CRIT = [
  'http://openbanking.org.uk/iat',
  'http://openbanking.org.uk/iss',
  'http://openbanking.org.uk/tan',
]
export const AIS_PATH = '/open-banking/v4.0/aisp'
export const PIS_PATH = '/open-banking/v4.0/pisp'

type Json = any // eslint-disable-line @typescript-eslint/no-explicit-any

function halfHash(value: string): string {
  const d = createHash('sha256').update(value, 'ascii').digest()
  return d.subarray(0, d.length / 2).toString('base64url')
}

/** Throws naming the step, the status and the start of the body. */
export function unexpected(what: string, res: HttpAnswer): never {
  throw new Error(`${what}: HTTP ${res.status} ${res.text.slice(0, 400)}`)
}

/** Parses a JSON answer. */
export function json(res: HttpAnswer): Json {
  return JSON.parse(res.text)
}

/** One TPP client working through the journey's steps; counts its HTTP calls and the signatures it checked. */
export class JourneySession {
  calls = 0
  verified = 0
  clientId = ''
  #discovery?: Record<string, string>
  #jwks?: JSONWebKeySet

  constructor(
    readonly io: JourneyIo,
    readonly target: SandboxTarget,
  ) {}

  get redirectUri(): string {
    return this.target.kit.redirectUris[0]!
  }

  get discovery(): Record<string, string> {
    if (!this.#discovery) throw new Error('discover() first')
    return this.#discovery
  }

  http(call: HttpCall): Promise<HttpAnswer> {
    this.calls++
    return this.io.http(call)
  }

  signJwt(claims: Record<string, unknown>): Promise<string> {
    return this.io.sign({ alg: 'PS256', kid: this.target.kit.signingKid, typ: 'JWT' }, JSON.stringify(claims))
  }

  /**
   * Discovery document and, unless `keys` is false, the bank's JWKS ({auth_url}). The console's
   * registration reads the discovery document alone (for the registration endpoint); each of its flows
   * reads it again and the JWKS when it first checks a signature.
   */
  async discover(keys = true): Promise<void> {
    const disc = await this.http({
      method: 'GET',
      url: `${this.target.authUrl}/.well-known/openid-configuration`,
      headers: { accept: 'application/json' },
      mtls: false,
    })
    if (disc.status !== 200) unexpected('discovery', disc)
    this.#discovery = json(disc)
    if (!keys) return
    const jwks = await this.http({
      method: 'GET',
      url: this.discovery.jwks_uri!,
      headers: { accept: 'application/json' },
      mtls: false,
    })
    if (jwks.status !== 200) unexpected('jwks', jwks)
    this.#jwks = json(jwks)
  }

  /** DCR 3.2: a new client (private_key_jwt, PS256 request objects, the sandbox's strict headless profile). */
  async register(): Promise<void> {
    const { kit } = this.target
    const iat = Math.floor(Date.now() / 1000)
    const jwt = await this.signJwt({
      iss: kit.softwareId,
      aud: this.target.authUrl,
      iat,
      exp: iat + 3600,
      jti: randomUUID(),
      token_endpoint_auth_signing_alg: 'PS256',
      grant_types: ['authorization_code', 'client_credentials', 'refresh_token'],
      subject_type: 'public',
      application_type: 'web',
      redirect_uris: [this.redirectUri],
      token_endpoint_auth_method: 'private_key_jwt',
      scope: 'openid accounts payments',
      request_object_signing_alg: 'PS256',
      response_types: ['code id_token'],
      id_token_signed_response_alg: 'PS256',
      software_statement: kit.ssa,
      sandbox_profile: 'strict-headless',
    })
    const res = await this.http({
      method: 'POST',
      url: this.discovery.registration_endpoint!,
      headers: { 'content-type': 'application/jwt', accept: 'application/json' },
      body: jwt,
      mtls: true,
    })
    if (res.status !== 201) unexpected('registration', res)
    this.clientId = json(res).client_id
  }

  /** A token request authenticated by a private_key_jwt client assertion; returns the access token. */
  async token(params: Record<string, string>, what: string): Promise<string> {
    const t = Math.floor(Date.now() / 1000)
    const assertion = await this.signJwt({
      iss: this.clientId,
      sub: this.clientId,
      aud: this.discovery.token_endpoint,
      jti: randomUUID(),
      iat: t,
      exp: t + 300,
    })
    const form = new URLSearchParams({
      ...params,
      client_id: this.clientId,
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      client_assertion: assertion,
    })
    const res = await this.http({
      method: 'POST',
      url: this.discovery.token_endpoint!,
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: form.toString(),
      mtls: true,
    })
    if (res.status !== 200) unexpected(what, res)
    return json(res).access_token
  }

  /** The account access consent of the journey; returns its id. */
  async aisConsent(clientCredentialsToken: string): Promise<string> {
    const res = await this.http({
      method: 'POST',
      url: `${this.target.baseUrl}${AIS_PATH}/account-access-consents`,
      headers: {
        authorization: `Bearer ${clientCredentialsToken}`,
        'content-type': 'application/json',
        accept: 'application/json',
        'x-fapi-interaction-id': randomUUID(),
      },
      body: JSON.stringify({ Data: { Permissions: AIS_PERMISSIONS, TransactionToDateTime: HISTORY_TO }, Risk: {} }),
      mtls: true,
    })
    if (res.status !== 201) unexpected('account access consent', res)
    return json(res).Data.ConsentId
  }

  /**
   * Headless authorisation of `consentId` with a PS256 request object: follows the sandbox's redirects
   * to the redirect URI, checks state (and the ID token when the stack verifies), returns the code.
   */
  async authorise(consentId: string, scope: string): Promise<string> {
    const d = this.discovery
    const redirectUri = this.redirectUri
    const state = randomUUID()
    const nonce = randomUUID()
    const t = Math.floor(Date.now() / 1000)
    const request = await this.signJwt({
      iss: this.clientId,
      aud: d.issuer,
      response_type: 'code id_token',
      client_id: this.clientId,
      redirect_uri: redirectUri,
      scope,
      state,
      nonce,
      nbf: t,
      exp: t + 600,
      claims: {
        id_token: {
          openbanking_intent_id: { value: consentId, essential: true },
          acr: { essential: true, values: ['urn:openbanking:psd2:sca', 'urn:openbanking:psd2:ca'] },
        },
        userinfo: { openbanking_intent_id: { value: consentId, essential: true } },
      },
    })
    let url = `${d.authorization_endpoint}?${new URLSearchParams({ client_id: this.clientId, response_type: 'code id_token', scope, redirect_uri: redirectUri, state, nonce, request })}`
    const cookies = new Map<string, string>()
    for (let hop = 0; hop < 5; hop++) {
      const headers: Record<string, string> = cookies.size
        ? { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') }
        : {}
      const res = await this.http({ method: 'GET', url, headers, mtls: false })
      const location = res.headers.location
      if (res.status < 300 || res.status > 399 || !location) unexpected(`headless authorisation of ${consentId}`, res)
      for (const c of (res.headers['set-cookie'] ?? '').split(/,(?=\s*[^;,=\s]+=)/).filter(Boolean)) {
        const pair = c.split(';')[0]!
        cookies.set(pair.slice(0, pair.indexOf('=')).trim(), pair.slice(pair.indexOf('=') + 1).trim())
      }
      const next = new URL(location, url).toString()
      if (!next.startsWith(redirectUri)) {
        url = next
        continue
      }
      const fragment = new URLSearchParams(new URL(next).hash.slice(1))
      const code = fragment.get('code')
      const idToken = fragment.get('id_token')
      if (!code || !idToken || fragment.get('state') !== state)
        throw new Error(`headless authorisation of ${consentId} returned ${next.slice(0, 300)}`)
      if (this.io.verify) await this.#checkIdToken(idToken, { consentId, nonce, code, state })
      return code
    }
    throw new Error(`headless authorisation of ${consentId}: more than 5 redirects`)
  }

  async #checkIdToken(
    idToken: string,
    e: { consentId: string; nonce: string; code: string; state: string },
  ): Promise<void> {
    const c = await this.io.verify!(idToken, this.#jwks!, {})
    const aud = Array.isArray(c.aud) ? c.aud : [c.aud]
    const problems = [
      c.iss !== this.discovery.issuer && 'iss',
      !aud.includes(this.clientId) && 'aud',
      c.nonce !== e.nonce && 'nonce',
      c.c_hash !== halfHash(e.code) && 'c_hash',
      c.s_hash !== halfHash(e.state) && 's_hash',
      c.openbanking_intent_id !== e.consentId && 'openbanking_intent_id',
      (typeof c.exp !== 'number' || c.exp * 1000 < Date.now()) && 'exp',
    ].filter(Boolean)
    if (problems.length) throw new Error(`the ID token for ${e.consentId} fails its checks: ${problems.join(', ')}`)
    this.verified++
  }

  /** Checks a PIS response's detached `x-jws-signature` over the exact body (when the stack verifies). */
  async verifyResponse(res: HttpAnswer, what: string): Promise<void> {
    if (!this.io.verify) return
    const sig = res.headers['x-jws-signature']
    if (!sig) throw new Error(`${what}: the response has no x-jws-signature`)
    await this.io.verify(sig, this.#jwks!, { detachedPayload: res.text, crit: OB_CRIT })
    this.verified++
  }

  /** Headers of an AIS data call with the PSU present. */
  dataHeaders(accessToken: string): Record<string, string> {
    return {
      authorization: `Bearer ${accessToken}`,
      accept: 'application/json',
      'x-fapi-interaction-id': randomUUID(),
      'x-fapi-customer-ip-address': PSU_IP,
    }
  }

  /**
   * A signed PIS POST, built but not sent: the body, and its headers with `x-jws-signature` over the exact
   * bytes and a new idempotency key. P10PG signs its payments ahead of the measured phase with it.
   */
  async signedRequest(
    path: string,
    bearer: string,
    payload: unknown,
  ): Promise<{ url: string; headers: Record<string, string>; body: string }> {
    const { kit } = this.target
    const body = JSON.stringify(payload)
    const jws = await this.io.sign(
      {
        alg: 'PS256',
        kid: kit.signingKid,
        typ: 'JOSE',
        cty: 'application/json',
        'http://openbanking.org.uk/iat': Math.floor(Date.now() / 1000) - 1,
        'http://openbanking.org.uk/iss': `${kit.orgId}/${kit.softwareId}`,
        'http://openbanking.org.uk/tan': 'openbanking.org.uk',
        crit: OB_CRIT,
      },
      body,
    )
    const [header, , signature] = jws.split('.')
    return {
      url: `${this.target.baseUrl}${PIS_PATH}${path}`,
      headers: {
        authorization: `Bearer ${bearer}`,
        'content-type': 'application/json',
        accept: 'application/json',
        'x-idempotency-key': randomUUID(),
        'x-jws-signature': `${header}..${signature}`,
        'x-fapi-interaction-id': randomUUID(),
      },
      body,
    }
  }

  /** A signed PIS POST (`x-jws-signature` over the exact bytes sent, an idempotency key); expects 201. */
  async signedPost(path: string, bearer: string, payload: unknown, what: string): Promise<Json> {
    const { url, headers, body } = await this.signedRequest(path, bearer, payload)
    const res = await this.http({ method: 'POST', url, headers, body, mtls: true })
    if (res.status !== 201) unexpected(what, res)
    await this.verifyResponse(res, what)
    return json(res)
  }
}
