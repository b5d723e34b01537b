/**
 * A small, independent TPP client for the local sandbox's integration tests. It talks HTTP with undici
 * and signs with jose directly; it shares no code with the console (src-main/http, src-main/signing),
 * so a bug on one side cannot hide the same bug on the other.
 */
import { createHash, randomUUID } from 'node:crypto'
import { Agent, request as undiciRequest } from 'undici'
import { CompactSign, SignJWT, importPKCS8, type CryptoKey } from 'jose'

export interface SandboxAddresses {
  baseUrl: string
  authUrl: string
  directoryUrl: string
  caBundlePem: string
}

/** The parts of a directory starter kit the client needs. */
export interface TppKit {
  orgId: string
  softwareId: string
  ssa: string
  signingKid: string
  signingKeyPem: string
  transportCertPem: string
  transportKeyPem: string
  redirectUris: string[]
}

export interface HttpResponse {
  status: number
  headers: Record<string, string>
  text: string
  /** Parsed JSON body, or undefined when the body is not JSON. */
  json: any // eslint-disable-line @typescript-eslint/no-explicit-any
}

export interface RegisteredTestClient {
  clientId: string
  clientSecret?: string
  authMethod: 'private_key_jwt' | 'client_secret_basic'
  registration: any // eslint-disable-line @typescript-eslint/no-explicit-any
}

export interface AuthorisationResult {
  /** The full URL the sandbox redirected to. */
  location: string
  params: URLSearchParams
  code?: string
  idToken?: string
  state: string
  nonce: string
}

function lowerHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(h))
    if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v
  return out
}

/** base64url of the left half of SHA-256, as `c_hash` and `s_hash` are computed. */
export function halfHash(value: string): string {
  const digest = createHash('sha256').update(value, 'ascii').digest()
  return digest.subarray(0, digest.length / 2).toString('base64url')
}

export class TestTpp {
  /** mTLS agent with the TPP's transport certificate. */
  readonly agent: Agent
  /** Plain TLS agent (no client certificate) trusting the sandbox CA: the browser's view. */
  readonly browser: Agent
  #signingKey?: Promise<CryptoKey>
  #discovery?: Promise<Record<string, any>> // eslint-disable-line @typescript-eslint/no-explicit-any

  /**
   * `freshConnections`: every request on a new connection (no keep-alive), so that behind a balancer
   * consecutive requests reach different instances.
   */
  constructor(
    readonly sandbox: SandboxAddresses,
    readonly kit: TppKit,
    options: { freshConnections?: boolean } = {},
  ) {
    const reuse = options.freshConnections ? { pipelining: 0 } : { connections: 1 }
    this.agent = new Agent({
      connect: { ca: sandbox.caBundlePem, cert: kit.transportCertPem, key: kit.transportKeyPem },
      ...reuse,
    })
    this.browser = new Agent({ connect: { ca: sandbox.caBundlePem }, ...reuse })
  }

  async close(): Promise<void> {
    await Promise.all([this.agent.close(), this.browser.close()])
  }

  signingKey(): Promise<CryptoKey> {
    this.#signingKey ??= importPKCS8(this.kit.signingKeyPem, 'PS256') as Promise<CryptoKey>
    return this.#signingKey
  }

  /** An HTTP call; redirects are never followed. `mtls: false` sends no client certificate. */
  async call(
    method: string,
    url: string,
    opts: { headers?: Record<string, string>; body?: string | Buffer; mtls?: boolean; agent?: Agent } = {},
  ): Promise<HttpResponse> {
    const res = await undiciRequest(url, {
      method: method as 'GET',
      headers: opts.headers,
      body: opts.body,
      dispatcher: opts.agent ?? (opts.mtls === false ? this.browser : this.agent),
    })
    const text = await res.body.text()
    let json: unknown
    try {
      json = text ? JSON.parse(text) : undefined
    } catch {
      json = undefined
    }
    return { status: res.statusCode, headers: lowerHeaders(res.headers), text, json }
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  discovery(): Promise<Record<string, any>> {
    this.#discovery ??= this.call('GET', `${this.sandbox.authUrl}/.well-known/openid-configuration`, {
      mtls: false,
    }).then((r) => {
      if (r.status !== 200) throw new Error(`discovery answered ${r.status}: ${r.text}`)
      return r.json
    })
    return this.#discovery
  }

  /** The claims of the bank spec's table 2.1, valid for this TPP; `overrides` replace (or, with undefined, remove) claims. */
  registrationClaims(overrides: Record<string, unknown> = {}): Record<string, unknown> {
    const iat = Math.floor(Date.now() / 1000)
    const claims: Record<string, unknown> = {
      iss: this.kit.softwareId,
      aud: this.sandbox.authUrl,
      iat,
      exp: iat + 3600,
      jti: randomUUID(),
      token_endpoint_auth_signing_alg: 'PS256',
      grant_types: ['authorization_code', 'client_credentials', 'refresh_token'],
      subject_type: 'public',
      application_type: 'web',
      redirect_uris: this.kit.redirectUris.slice(0, 1),
      token_endpoint_auth_method: 'private_key_jwt',
      scope: 'openid accounts payments',
      request_object_signing_alg: 'PS256',
      response_types: ['code id_token'],
      id_token_signed_response_alg: 'PS256',
      software_statement: this.kit.ssa,
    }
    for (const [k, v] of Object.entries(overrides)) {
      if (v === undefined) delete claims[k]
      else claims[k] = v
    }
    return claims
  }

  /** Signs registration claims PS256 with the software's signing key (or the given key and kid). */
  async signRegistration(
    claims: Record<string, unknown>,
    opts: { key?: CryptoKey; kid?: string; typ?: string } = {},
  ): Promise<string> {
    return new CompactSign(new TextEncoder().encode(JSON.stringify(claims)))
      .setProtectedHeader({ alg: 'PS256', kid: opts.kid ?? this.kit.signingKid, typ: opts.typ ?? 'JWT' })
      .sign(opts.key ?? (await this.signingKey()))
  }

  async registrationEndpoint(): Promise<string> {
    return (await this.discovery()).registration_endpoint as string
  }

  async tokenEndpoint(): Promise<string> {
    return (await this.discovery()).token_endpoint as string
  }

  /** POSTs a registration JWT. */
  async postRegistration(
    jwt: string,
    contentType = 'application/jwt',
    opts: { mtls?: boolean; agent?: Agent } = {},
  ): Promise<HttpResponse> {
    return this.call('POST', await this.registrationEndpoint(), {
      headers: { 'content-type': contentType },
      body: jwt,
      ...opts,
    })
  }

  /** Registers a client and returns its id (and secret for client_secret_basic). Throws on failure. */
  async register(
    opts: { authMethod?: 'private_key_jwt' | 'client_secret_basic'; overrides?: Record<string, unknown> } = {},
  ): Promise<RegisteredTestClient> {
    const authMethod = opts.authMethod ?? 'private_key_jwt'
    const claims = this.registrationClaims({
      token_endpoint_auth_method: authMethod,
      ...(authMethod === 'client_secret_basic' ? { request_object_signing_alg: 'none' } : {}),
      ...opts.overrides,
    })
    const res = await this.postRegistration(await this.signRegistration(claims))
    if (res.status !== 201) throw new Error(`registration answered ${res.status}: ${res.text}`)
    return { clientId: res.json.client_id, clientSecret: res.json.client_secret, authMethod, registration: res.json }
  }

  /** A private_key_jwt client assertion; `overrides` replace claims. */
  async clientAssertion(clientId: string, overrides: Record<string, unknown> = {}): Promise<string> {
    const claims = { iss: clientId, sub: clientId, aud: await this.tokenEndpoint(), jti: randomUUID(), ...overrides }
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'PS256', kid: this.kit.signingKid })
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(await this.signingKey())
  }

  /** Calls the token endpoint with the client's authentication added to `params`. */
  async tokenRequest(
    client: RegisteredTestClient,
    params: Record<string, string>,
    opts: { assertionOverrides?: Record<string, unknown> } = {},
  ): Promise<HttpResponse> {
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' }
    const form = new URLSearchParams(params)
    if (client.authMethod === 'client_secret_basic') {
      const basic = Buffer.from(
        `${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.clientSecret ?? '')}`,
      ).toString('base64')
      headers.authorization = `Basic ${basic}`
    } else {
      form.set('client_id', client.clientId)
      form.set('client_assertion_type', 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer')
      form.set('client_assertion', await this.clientAssertion(client.clientId, opts.assertionOverrides))
    }
    return this.call('POST', await this.tokenEndpoint(), { headers, body: form.toString() })
  }

  /** A client-credentials access token for `scope`. Throws on failure. */
  async clientCredentials(client: RegisteredTestClient, scope: 'accounts' | 'payments'): Promise<string> {
    const res = await this.tokenRequest(client, { grant_type: 'client_credentials', scope })
    if (res.status !== 200) throw new Error(`client_credentials answered ${res.status}: ${res.text}`)
    return res.json.access_token
  }

  /** A request object for the hybrid flow (PS256 with the software key, or `alg: none`). */
  async requestObject(
    client: RegisteredTestClient,
    input: {
      consentId: string
      scope: string
      state: string
      nonce: string
      redirectUri?: string
      alg?: 'PS256' | 'none'
      overrides?: Record<string, unknown>
    },
  ): Promise<string> {
    const now = Math.floor(Date.now() / 1000)
    const claims: Record<string, unknown> = {
      iss: client.clientId,
      aud: (await this.discovery()).issuer,
      response_type: 'code id_token',
      client_id: client.clientId,
      redirect_uri: input.redirectUri ?? this.kit.redirectUris[0],
      scope: input.scope,
      state: input.state,
      nonce: input.nonce,
      nbf: now,
      exp: now + 600,
      claims: {
        id_token: {
          openbanking_intent_id: { value: input.consentId, essential: true },
          acr: { essential: true, values: ['urn:openbanking:psd2:sca', 'urn:openbanking:psd2:ca'] },
        },
        userinfo: { openbanking_intent_id: { value: input.consentId, essential: true } },
      },
    }
    for (const [k, v] of Object.entries(input.overrides ?? {})) {
      if (v === undefined) delete claims[k]
      else claims[k] = v
    }
    if (input.alg === 'none') {
      const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url')
      return `${enc({ alg: 'none', typ: 'JWT' })}.${enc(claims)}.`
    }
    return new CompactSign(new TextEncoder().encode(JSON.stringify(claims)))
      .setProtectedHeader({ alg: 'PS256', kid: this.kit.signingKid, typ: 'JWT' })
      .sign(await this.signingKey())
  }

  /** The authorisation URL with the request object, as a TPP sends the PSU to it. */
  async authorisationUrl(
    client: RegisteredTestClient,
    input: Parameters<TestTpp['requestObject']>[1],
  ): Promise<string> {
    const url = new URL((await this.discovery()).authorization_endpoint as string)
    url.searchParams.set('client_id', client.clientId)
    url.searchParams.set('response_type', 'code id_token')
    url.searchParams.set('scope', input.scope)
    url.searchParams.set('redirect_uri', input.redirectUri ?? this.kit.redirectUris[0]!)
    url.searchParams.set('state', input.state)
    url.searchParams.set('nonce', input.nonce)
    url.searchParams.set('request', await this.requestObject(client, input))
    return url.toString()
  }

  /**
   * Follows the sandbox's redirects like a browser without a page in between (a headless client) until
   * one leaves the sandbox's origins; returns the parameters of that final redirect (fragment or query).
   */
  async followToRedirectUri(
    startUrl: string,
    maxHops = 10,
  ): Promise<{ location: string; params: URLSearchParams; cookies: string[] }> {
    let url = startUrl
    const jar = new Map<string, string>()
    for (let hop = 0; hop < maxHops; hop++) {
      const headers: Record<string, string> = {}
      if (jar.size) headers.cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ')
      const res = await undiciRequest(url, { method: 'GET', headers, dispatcher: this.browser })
      const setCookie = res.headers['set-cookie']
      for (const c of Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : []) {
        const [pair] = c.split(';')
        const eq = pair!.indexOf('=')
        jar.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1).trim())
      }
      const text = await res.body.text()
      const location = res.headers.location as string | undefined
      if (res.statusCode < 300 || res.statusCode >= 400 || !location) {
        throw new Error(
          `expected a redirect from ${url}, got ${res.statusCode}: ${text.replace(/<style>[^]*<\/style>/, '').slice(0, 1500)}`,
        )
      }
      const next = new URL(location, url)
      const sandboxOrigins = [this.sandbox.authUrl, this.sandbox.baseUrl].map((u) => new URL(u).origin)
      if (!sandboxOrigins.includes(next.origin)) {
        const params = new URLSearchParams(next.hash ? next.hash.slice(1) : next.search.slice(1))
        return { location: next.toString(), params, cookies: [...jar].map(([k, v]) => `${k}=${v}`) }
      }
      url = next.toString()
    }
    throw new Error(`more than ${maxHops} redirects from ${startUrl}`)
  }

  /** Runs a headless client's authorisation of `consentId` and returns code, id_token, state and nonce. */
  async authoriseHeadless(
    client: RegisteredTestClient,
    consentId: string,
    scope: string,
    opts: { alg?: 'PS256' | 'none' } = {},
  ): Promise<AuthorisationResult> {
    const state = randomUUID()
    const nonce = randomUUID()
    const url = await this.authorisationUrl(client, { consentId, scope, state, nonce, alg: opts.alg })
    const { location, params } = await this.followToRedirectUri(url)
    return {
      location,
      params,
      code: params.get('code') ?? undefined,
      idToken: params.get('id_token') ?? undefined,
      state,
      nonce,
    }
  }

  /** Exchanges an authorisation code for tokens. */
  async exchangeCode(
    client: RegisteredTestClient,
    code: string,
    redirectUri = this.kit.redirectUris[0]!,
  ): Promise<HttpResponse> {
    return this.tokenRequest(client, { grant_type: 'authorization_code', code, redirect_uri: redirectUri })
  }
}
