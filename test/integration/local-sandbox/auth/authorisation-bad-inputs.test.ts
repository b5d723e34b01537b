import 'reflect-metadata'
import { randomUUID } from 'node:crypto'
import { CompactSign, generateKeyPair } from 'jose'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startTestSandbox, type TestSandbox } from '../support/sandbox-fixture.ts'
import type { HttpResponse, RegisteredTestClient, TestTpp } from '../support/test-tpp.ts'

let env: TestSandbox
let tpp: TestTpp
let other: TestTpp
let strict: RegisteredTestClient
let permissive: RegisteredTestClient
let aisOnlyClient: RegisteredTestClient
let otherClient: RegisteredTestClient

beforeAll(async () => {
  env = await startTestSandbox()
  ;[tpp, other] = await Promise.all([env.onboard({ roles: ['AISP', 'PISP'] }), env.onboard()])
  strict = await tpp.register()
  permissive = await tpp.register({ authMethod: 'client_secret_basic' })
  aisOnlyClient = await tpp.register({ overrides: { scope: 'openid accounts' } })
  otherClient = await other.register()
})
afterAll(async () => {
  await env?.stop()
})
afterEach(async () => {
  const discovery = await tpp.call('GET', `${env.sandbox.authUrl}/.well-known/openid-configuration`, { mtls: false })
  expect(discovery.status).toBe(200)
})

const consents = () => env.sandbox.context.consents
const newAis = (clientId: string) => consents().createAis({ clientId, permissions: ['ReadAccountsBasic'] })
const newPis = (clientId: string) =>
  consents().createPis({
    clientId,
    data: {
      Initiation: {
        InstructionIdentification: 'i',
        EndToEndIdentification: 'e',
        InstructedAmount: { Amount: '1.00', Currency: 'GBP' },
        CreditorAccount: { SchemeName: 'UK.OBIE.SortCodeAccountNumber', Identification: '11111111111111', Name: 'X' },
      },
    },
    risk: {},
  })

function expectError(res: HttpResponse, status: number, error: string, mentions?: RegExp): void {
  expect(res.status, res.text).toBe(status)
  expect(res.json?.error, res.text).toBe(error)
  if (mentions) expect(res.json.error_description).toMatch(mentions)
}

/** Sends the PSU's browser to the authorisation URL and returns the error redirect's parameters. */
async function authoriseExpectingError(url: string): Promise<URLSearchParams> {
  const res = await tpp.call('GET', url, { mtls: false })
  expect(res.status, res.text).toBe(303)
  const location = new URL(res.headers.location!)
  expect(`${location.origin}${location.pathname}`).toBe(tpp.kit.redirectUris[0])
  return new URLSearchParams(location.hash.slice(1))
}

async function url(
  client: RegisteredTestClient,
  consentId: string,
  scope: string,
  extra: { alg?: 'PS256' | 'none'; overrides?: Record<string, unknown> } = {},
): Promise<string> {
  return tpp.authorisationUrl(client, { consentId, scope, state: randomUUID(), nonce: randomUUID(), ...extra })
}

describe('authorisation requests (errors redirected to the registered redirect URI, fragment, with state)', () => {
  const cases: Array<[string, () => Promise<string>, string, RegExp]> = [
    [
      'an expired request object',
      async () =>
        url(strict, (await newAis(strict.clientId)).consentId, 'openid accounts', {
          overrides: { nbf: Math.floor(Date.now() / 1000) - 1800, exp: Math.floor(Date.now() / 1000) - 600 },
        }),
      'invalid_request_object',
      /expired/,
    ],
    [
      'no exp in the request object',
      async () =>
        url(strict, (await newAis(strict.clientId)).consentId, 'openid accounts', { overrides: { exp: undefined } }),
      'invalid_request_object',
      /no exp claim/,
    ],
    [
      'no nbf from a strict client',
      async () =>
        url(strict, (await newAis(strict.clientId)).consentId, 'openid accounts', { overrides: { nbf: undefined } }),
      'invalid_request_object',
      /no nbf claim/,
    ],
    [
      'nbf two hours in the past',
      async () =>
        url(strict, (await newAis(strict.clientId)).consentId, 'openid accounts', {
          overrides: { nbf: Math.floor(Date.now() / 1000) - 7200 },
        }),
      'invalid_request_object',
      /nbf/,
    ],
    [
      'an unknown intent',
      async () => url(strict, 'aac-does-not-exist', 'openid accounts'),
      'invalid_request',
      /names no consent/,
    ],
    [
      "another client's intent",
      async () => url(strict, (await newAis(otherClient.clientId)).consentId, 'openid accounts'),
      'invalid_request',
      /created by another client/,
    ],
    [
      'an intent that is no longer AWAU',
      async () => {
        const c = await newAis(strict.clientId)
        await consents().reject(c.consentId)
        return url(strict, c.consentId, 'openid accounts')
      },
      'invalid_request',
      /has status RJCT/,
    ],
    [
      'a payment intent with the accounts scope',
      async () => url(strict, (await newPis(strict.clientId)).consentId, 'openid accounts'),
      'invalid_scope',
      /payment consent; the scope must include payments/,
    ],
    [
      'a scope the client did not register',
      async () => url(aisOnlyClient, (await newPis(aisOnlyClient.clientId)).consentId, 'openid payments'),
      'invalid_scope',
      /not registered by this client/,
    ],
    [
      'an unsigned request object from a strict client',
      async () => url(strict, (await newAis(strict.clientId)).consentId, 'openid accounts', { alg: 'none' }),
      'invalid_request_object',
      /strict profile/,
    ],
    [
      'a request object aud that is not the issuer',
      async () =>
        url(strict, (await newAis(strict.clientId)).consentId, 'openid accounts', {
          overrides: { aud: `${env.sandbox.baseUrl}/token` },
        }),
      'invalid_request_object',
      /aud .* expected the issuer/,
    ],
    [
      'a request object iss that is not the client',
      async () =>
        url(permissive, (await newAis(permissive.clientId)).consentId, 'openid accounts', {
          alg: 'none',
          overrides: { iss: 'someone' },
        }),
      'invalid_request_object',
      /iss is "someone"/,
    ],
    [
      'no nonce',
      async () =>
        url(permissive, (await newAis(permissive.clientId)).consentId, 'openid accounts', {
          alg: 'none',
          overrides: { nonce: undefined },
        }),
      'invalid_request_object',
      /no nonce/,
    ],
    [
      'no openbanking_intent_id claim',
      async () =>
        url(permissive, (await newAis(permissive.clientId)).consentId, 'openid accounts', {
          alg: 'none',
          overrides: { claims: { id_token: { acr: { essential: true } } } },
        }),
      'invalid_request',
      /openbanking_intent_id/,
    ],
    [
      'a response_type the client did not register',
      async () =>
        url(strict, (await newAis(strict.clientId)).consentId, 'openid accounts', {
          overrides: { response_type: 'code' },
        }),
      'invalid_request_object',
      /differs from the query/,
    ],
  ]
  it.each(cases)('%s', async (_name, makeUrl, error, mentions) => {
    const target = await makeUrl()
    const state = new URL(target).searchParams.get('state')
    const params = await authoriseExpectingError(target)
    expect(params.get('error')).toBe(error)
    expect(params.get('error_description')).toMatch(mentions)
    expect(params.get('state')).toBe(state)
    expect(params.get('code')).toBeNull()
  })

  it('a request object signed with another key', async () => {
    const consent = await newAis(strict.clientId)
    const { privateKey } = await generateKeyPair('PS256')
    const now = Math.floor(Date.now() / 1000)
    const claims = {
      iss: strict.clientId,
      aud: env.sandbox.authUrl,
      response_type: 'code id_token',
      client_id: strict.clientId,
      redirect_uri: tpp.kit.redirectUris[0],
      scope: 'openid accounts',
      state: 's1',
      nonce: 'n1',
      nbf: now,
      exp: now + 300,
      claims: { id_token: { openbanking_intent_id: { value: consent.consentId, essential: true } } },
    }
    const jwt = await new CompactSign(new TextEncoder().encode(JSON.stringify(claims)))
      .setProtectedHeader({ alg: 'PS256', kid: tpp.kit.signingKid })
      .sign(privateKey)
    const target = `${env.sandbox.authUrl}/auth?${new URLSearchParams({ client_id: strict.clientId, response_type: 'code id_token', scope: 'openid accounts', request: jwt })}`
    const params = await authoriseExpectingError(target)
    expect(params.get('error')).toBe('invalid_request_object')
    expect(params.get('error_description')).toMatch(/signature does not verify/)
    expect(params.get('state')).toBe('s1')
    expect((await consents().getAis(consent.consentId))!.status).toBe('AWAU')
  })

  it('a redirect URI the client did not register: an error page, never a redirect', async () => {
    const target = await url(strict, (await newAis(strict.clientId)).consentId, 'openid accounts', {
      overrides: { redirect_uri: 'https://evil.example/cb' },
    })
    const res = await tpp.call('GET', target, { mtls: false })
    expect(res.status).toBe(400)
    expect(res.headers.location).toBeUndefined()
    expect(res.text).toContain('is not registered for client')
  })

  it('an unknown client_id and a request without a request object: error pages', async () => {
    const unknown = await tpp.call(
      'GET',
      `${env.sandbox.authUrl}/auth?client_id=nobody&response_type=code%20id_token&scope=openid`,
      { mtls: false },
    )
    expect(unknown.status).toBe(400)
    expect(unknown.text).toContain('no client nobody is registered')
    const bare = await tpp.call(
      'GET',
      `${env.sandbox.authUrl}/auth?client_id=${strict.clientId}&response_type=code%20id_token&scope=openid`,
      { mtls: false },
    )
    expect(bare.status).toBe(400)
    expect(bare.text).toContain('has no request parameter')
  })
})

describe("the authorisation endpoint's transport", () => {
  it('POST with form parameters works like GET; a wrong content type is 400 and an oversized form 413', async () => {
    const target = new URL(
      await url(permissive, (await newAis(permissive.clientId)).consentId, 'openid accounts', { alg: 'none' }),
    )
    const posted = await tpp.call('POST', `${env.sandbox.authUrl}/auth`, {
      mtls: false,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: target.searchParams.toString(),
    })
    expect(posted.status).toBe(303)
    expect(posted.headers.location).toMatch(/^\/interaction\//)
    const json = await tpp.call('POST', `${env.sandbox.authUrl}/auth`, {
      mtls: false,
      headers: { 'content-type': 'application/json' },
      body: '{}',
    })
    expect(json.status).toBe(400)
    expect(json.text).toContain('must be application/x-www-form-urlencoded')
    const huge = await tpp.call('POST', `${env.sandbox.authUrl}/auth`, {
      mtls: false,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `request=${'a'.repeat(1024 * 1024 + 10)}`,
    })
    expect(huge.status).toBe(413)
  })

  it('a malformed percent-encoding in a path is 400, not 500', async () => {
    const token = await tpp.clientCredentials(strict, 'accounts')
    expectError(
      await tpp.call('GET', `${env.sandbox.baseUrl}/o3/v1.0/auth-code-url/%E0%A4%A`, {
        headers: { authorization: `Bearer ${token}` },
      }),
      400,
      'invalid_request',
      /percent-encoding/,
    )
    expectError(
      await tpp.call('GET', `${await tpp.registrationEndpoint()}/%E0%A4%A`, {
        headers: { authorization: `Bearer ${token}` },
      }),
      400,
      'invalid_request',
      /percent-encoding/,
    )
  })
})

describe('token endpoint', () => {
  it('a client assertion whose aud is neither the token endpoint nor the issuer: 401 invalid_client naming the audience', async () => {
    const res = await tpp.tokenRequest(
      strict,
      { grant_type: 'client_credentials', scope: 'accounts' },
      { assertionOverrides: { aud: 'https://bank.example/token' } },
    )
    expectError(res, 401, 'invalid_client', /audience/)
  })

  it('a client assertion used twice: 401 invalid_client', async () => {
    const jti = randomUUID()
    expect(
      (
        await tpp.tokenRequest(
          strict,
          { grant_type: 'client_credentials', scope: 'accounts' },
          { assertionOverrides: { jti } },
        )
      ).status,
    ).toBe(200)
    expectError(
      await tpp.tokenRequest(
        strict,
        { grant_type: 'client_credentials', scope: 'accounts' },
        { assertionOverrides: { jti } },
      ),
      401,
      'invalid_client',
      /only be used once/,
    )
  })

  it('the issuer as client assertion aud is accepted', async () => {
    const res = await tpp.tokenRequest(
      strict,
      { grant_type: 'client_credentials', scope: 'accounts' },
      { assertionOverrides: { aud: env.sandbox.authUrl } },
    )
    expect(res.status).toBe(200)
  })

  it('a wrong client secret: 401 invalid_client', async () => {
    expectError(
      await tpp.tokenRequest(
        { ...permissive, clientSecret: 'wrong' },
        { grant_type: 'client_credentials', scope: 'accounts' },
      ),
      401,
      'invalid_client',
    )
  })

  it('client_secret_basic from a private_key_jwt client: 401 invalid_client', async () => {
    expectError(
      await tpp.tokenRequest(
        { ...strict, authMethod: 'client_secret_basic', clientSecret: 'guess' },
        { grant_type: 'client_credentials', scope: 'accounts' },
      ),
      401,
      'invalid_client',
    )
  })

  it('a client-credentials scope the client did not register: 400 invalid_scope', async () => {
    expectError(
      await tpp.tokenRequest(aisOnlyClient, { grant_type: 'client_credentials', scope: 'payments' }),
      400,
      'invalid_scope',
    )
  })

  it('an unknown authorisation code: 400 invalid_grant', async () => {
    expectError(await tpp.exchangeCode(strict, 'not-a-code'), 400, 'invalid_grant')
  })
})

describe('registration management', () => {
  it("no token, another client's token, an unknown client id: 401 with WWW-Authenticate: Bearer", async () => {
    const endpoint = await tpp.registrationEndpoint()
    const none = await tpp.call('GET', `${endpoint}/${strict.clientId}`)
    expectError(none, 401, 'invalid_token')
    expect(none.headers['www-authenticate']).toMatch(/^Bearer /)
    const otherToken = await other.clientCredentials(otherClient, 'accounts')
    const foreign = await tpp.call('GET', `${endpoint}/${strict.clientId}`, {
      headers: { authorization: `Bearer ${otherToken}` },
    })
    expectError(foreign, 401, 'invalid_token', /belongs to client/)
    const mine = await tpp.clientCredentials(strict, 'accounts')
    const unknown = await tpp.call('GET', `${endpoint}/${randomUUID()}`, {
      headers: { authorization: `Bearer ${mine}` },
    })
    expectError(unknown, 401, 'invalid_token', /has been revoked/)
    // DCR 3.2: the token presented for an unknown client is revoked.
    expectError(
      await tpp.call('GET', `${endpoint}/${strict.clientId}`, { headers: { authorization: `Bearer ${mine}` } }),
      401,
      'invalid_token',
    )
  })
})

describe('/o3 helpers', () => {
  it("auth-code-url: unknown consent 400, another client's consent 403, a strict client 400, alg=PS256 400, no credentials 401", async () => {
    const basic = {
      authorization: `Basic ${Buffer.from(`${permissive.clientId}:${permissive.clientSecret}`).toString('base64')}`,
    }
    const base = `${env.sandbox.baseUrl}/o3/v1.0/auth-code-url`
    expectError(
      await tpp.call('GET', `${base}/aac-unknown?scope=accounts`, { headers: basic }),
      400,
      'invalid_request',
      /no consent/,
    )
    expectError(
      await tpp.call('GET', `${base}/${(await newAis(strict.clientId)).consentId}?scope=accounts`, { headers: basic }),
      403,
      'access_denied',
    )
    const strictToken = await tpp.clientCredentials(strict, 'accounts')
    expectError(
      await tpp.call('GET', `${base}/${(await newAis(strict.clientId)).consentId}?scope=accounts`, {
        headers: { authorization: `Bearer ${strictToken}` },
      }),
      400,
      'unauthorized_client',
      /strict profile/,
    )
    expectError(
      await tpp.call('GET', `${base}/${(await newAis(permissive.clientId)).consentId}?scope=accounts&alg=PS256`, {
        headers: basic,
      }),
      400,
      'invalid_request',
      /must be signed by the client itself/,
    )
    expectError(
      await tpp.call('GET', `${base}/${(await newAis(permissive.clientId)).consentId}?scope=payments`, {
        headers: basic,
      }),
      400,
      'invalid_scope',
    )
    expectError(
      await tpp.call('GET', `${base}/${(await newAis(permissive.clientId)).consentId}`),
      401,
      'invalid_client',
    )
  })

  it("postman environment: another organisation's client 403, no client_id 400", async () => {
    const base = `${env.sandbox.baseUrl}/o3/v1.0/postman/environment`
    expectError(
      await tpp.call('GET', `${base}?client_id=${otherClient.clientId}`),
      403,
      'access_denied',
      new RegExp(other.kit.orgId),
    )
    expectError(await tpp.call('GET', base), 400, 'invalid_request', /client_id query parameter is required/)
    expectError(await tpp.call('GET', `${base}?client_id=${strict.clientId}`, { mtls: false }), 401, 'invalid_client')
  })
})
