import 'reflect-metadata'
import { createHash, X509Certificate } from 'node:crypto'
import { createLocalJWKSet, jwtVerify, type JWTPayload } from 'jose'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { AuthorisationServer } from '../../../../src-main/local-sandbox/auth/types.ts'
import type * as AuthorisationServerModule from '../../../../src-main/local-sandbox/auth/authorisation-server.ts'
import { startTestSandbox, type TestSandbox } from '../support/sandbox-fixture.ts'
import { halfHash, type RegisteredTestClient, type TestTpp } from '../support/test-tpp.ts'

// Captures the authorisation server the real sandbox composition creates, to call tokens.verify as AIS and PIS do.
const captured = vi.hoisted(() => ({ servers: [] as AuthorisationServer[] }))
vi.mock('../../../../src-main/local-sandbox/auth/authorisation-server.ts', async (importOriginal) => {
  const original = await importOriginal<typeof AuthorisationServerModule>()
  return {
    ...original,
    createAuthorisationServer: async (ctx: Parameters<typeof original.createAuthorisationServer>[0]) => {
      const server = await original.createAuthorisationServer(ctx)
      captured.servers.push(server)
      return server
    },
  }
})
const authServer = () => captured.servers.at(-1)!

let env: TestSandbox
let tpp: TestTpp

beforeAll(async () => {
  env = await startTestSandbox()
  tpp = await env.onboard({ roles: ['AISP', 'PISP'] })
})
afterAll(async () => {
  await env?.stop()
})

const consents = () => env.sandbox.context.consents
const newAis = (clientId: string) =>
  consents().createAis({ clientId, permissions: ['ReadAccountsBasic', 'ReadBalances'] })
const newPis = (clientId: string, debtorIdentification?: string) =>
  consents().createPis({
    clientId,
    data: {
      Initiation: {
        InstructionIdentification: 'instr-1',
        EndToEndIdentification: 'e2e-1',
        InstructedAmount: { Amount: '12.34', Currency: 'GBP' },
        CreditorAccount: {
          SchemeName: 'UK.OBIE.SortCodeAccountNumber',
          Identification: '11223344556677',
          Name: 'Corner Shop Ltd',
        },
        RemittanceInformation: { Structured: [{ CreditorReferenceInformation: { Reference: 'INV-42' } }] },
        ...(debtorIdentification
          ? { DebtorAccount: { SchemeName: 'UK.OBIE.SortCodeAccountNumber', Identification: debtorIdentification } }
          : {}),
      },
    },
    risk: {},
  })

async function verifyIdToken(idToken: string, clientId: string): Promise<JWTPayload> {
  const jwks = await tpp.call('GET', (await tpp.discovery()).jwks_uri as string, { mtls: false })
  expect(jwks.status).toBe(200)
  const { payload, protectedHeader } = await jwtVerify(idToken, createLocalJWKSet(jwks.json), {
    issuer: env.sandbox.authUrl,
    audience: clientId,
    algorithms: ['PS256'],
  })
  expect(protectedHeader.alg).toBe('PS256')
  return payload
}

const transportThumbprint = () =>
  createHash('sha256').update(new X509Certificate(tpp.kit.transportCertPem).raw).digest('base64url')

describe('discovery', () => {
  it('tells the truth about endpoints, algorithms, claims and ACRs', async () => {
    const d = await tpp.discovery()
    expect(d.issuer).toBe(env.sandbox.authUrl)
    // The token endpoint is the authorisation server's (spec sections 1 and 4.5), client certificate required.
    expect(d.token_endpoint).toBe(`${env.sandbox.authUrl}/token`)
    expect(d.registration_endpoint).toBe(`${env.sandbox.baseUrl}/dynamic-client-registration/v3.2/register`)
    expect(d.mtls_endpoint_aliases.token_endpoint).toBe(`${env.sandbox.authUrl}/token`)
    expect(d.authorization_endpoint).toBe(`${env.sandbox.authUrl}/auth`)
    expect(d.jwks_uri).toBe(`${env.sandbox.authUrl}/jwks`)
    expect(d.token_endpoint_auth_methods_supported).toEqual(['private_key_jwt', 'client_secret_basic'])
    expect(d.response_types_supported).toContain('code id_token')
    expect(d.request_object_signing_alg_values_supported).toEqual(['PS256', 'none'])
    expect(d.id_token_signing_alg_values_supported).toEqual(['PS256'])
    expect(d.claims_supported).toEqual(expect.arrayContaining(['openbanking_intent_id', 'acr']))
    expect(d.acr_values_supported).toEqual(['urn:openbanking:psd2:sca', 'urn:openbanking:psd2:ca'])
    expect(d.scopes_supported).toEqual(['openid', 'accounts', 'payments'])
    expect(d.grant_types_supported).toEqual(
      expect.arrayContaining(['authorization_code', 'client_credentials', 'refresh_token']),
    )
    expect(d.tls_client_certificate_bound_access_tokens).toBe(true)
    expect(d.request_parameter_supported).toBe(true)
    const jwks = await tpp.call('GET', d.jwks_uri, { mtls: false })
    expect(jwks.json.keys).toEqual(env.sandbox.context.signingKey.publicJwks.keys)
    expect(jwks.json.keys[0].d).toBeUndefined()
    expect(jwks.headers['x-fapi-interaction-id']).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('answers discovery and the JWKS the same way every time, with URLs following the Host header', async () => {
    const url = `${env.sandbox.authUrl}/.well-known/openid-configuration`
    const [a, b] = [await tpp.call('GET', url, { mtls: false }), await tpp.call('GET', url, { mtls: false })]
    expect(b.text).toBe(a.text)
    for (const r of [a, b]) {
      expect(r.headers['content-type']).toBe('application/json; charset=utf-8')
      expect(r.headers['cache-control']).toBe('public, max-age=60')
    }
    const port = new URL(env.sandbox.authUrl).port
    const other = await tpp.call('GET', url, { mtls: false, headers: { host: `localhost:${port}` } })
    expect(other.json.authorization_endpoint).toBe(`https://localhost:${port}/auth`)
    expect(other.json.issuer).toBe(env.sandbox.authUrl)
    expect((await tpp.call('GET', url, { mtls: false })).json.authorization_endpoint).toBe(
      `${env.sandbox.authUrl}/auth`,
    )

    const jwksUrl = `${env.sandbox.authUrl}/jwks`
    const [j1, j2] = [
      await tpp.call('GET', jwksUrl, { mtls: false }),
      await tpp.call('GET', jwksUrl, { mtls: false, headers: { origin: 'https://tpp.example' } }),
    ]
    expect(j2.text).toBe(j1.text)
    expect(j1.headers['content-type']).toBe('application/jwk-set+json; charset=utf-8')
    expect(j1.headers['access-control-allow-origin']).toBe('*')
    expect(j2.headers['access-control-allow-origin']).toBe('https://tpp.example')
    expect(j2.headers.vary).toBe('Origin')
    const preflight = await tpp.call('OPTIONS', jwksUrl, {
      mtls: false,
      headers: { origin: 'https://tpp.example', 'access-control-request-method': 'GET' },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers['access-control-allow-methods']).toBe('GET')
  })
})

describe('headless authorisation', () => {
  let strict: RegisteredTestClient
  let permissive: RegisteredTestClient
  beforeAll(async () => {
    strict = await tpp.register({ overrides: { sandbox_profile: 'strict-headless' } })
    permissive = await tpp.register({
      authMethod: 'client_secret_basic',
      overrides: { sandbox_profile: 'permissive-headless' },
    })
  })

  it('AIS, PS256 request object: one redirect to the redirect URI with code and ID token, then code exchange and refresh', async () => {
    const consent = await newAis(strict.clientId)
    const auth = await tpp.authoriseHeadless(strict, consent.consentId, 'openid accounts')
    expect(auth.location.startsWith(`${tpp.kit.redirectUris[0]}#`)).toBe(true)
    expect(auth.params.get('state')).toBe(auth.state)
    const claims = await verifyIdToken(auth.idToken!, strict.clientId)
    expect(claims).toMatchObject({
      nonce: auth.nonce,
      openbanking_intent_id: consent.consentId,
      sub: consent.consentId,
      acr: 'urn:openbanking:psd2:sca',
    })
    expect(claims.c_hash).toBe(halfHash(auth.code!))
    expect(claims.s_hash).toBe(halfHash(auth.state))
    const stored = (await consents().getAis(consent.consentId))!
    expect(stored.status).toBe('AUTH')
    expect(stored.psuId).toBe('psu-amelia')
    expect(stored.accountIds.sort()).toEqual(['acc-amelia-card', 'acc-amelia-current'])

    const tokens = await tpp.exchangeCode(strict, auth.code!)
    expect(tokens.status).toBe(200)
    expect(tokens.json).toMatchObject({ token_type: 'Bearer', expires_in: 3600 })
    expect(tokens.json.scope.split(' ').sort()).toEqual(['accounts', 'openid'])
    const tokenIdToken = await verifyIdToken(tokens.json.id_token, strict.clientId)
    expect(tokenIdToken).toMatchObject({
      openbanking_intent_id: consent.consentId,
      nonce: auth.nonce,
      acr: 'urn:openbanking:psd2:sca',
    })
    const info = await authServer().tokens.verify(tokens.json.access_token)
    expect(info).toMatchObject({
      clientId: strict.clientId,
      grant: 'authorization_code',
      consentId: consent.consentId,
      certificateThumbprint: transportThumbprint(),
    })
    expect(info!.scopes).toContain('accounts')
    expect(tokens.headers['x-fapi-interaction-id']).toMatch(/^[0-9a-f-]{36}$/)

    // userinfo on {base_url}, with the certificate-bound token
    const userinfo = await tpp.call('GET', (await tpp.discovery()).userinfo_endpoint, {
      headers: {
        authorization: `Bearer ${tokens.json.access_token}`,
        'x-fapi-interaction-id': '0b6a4c2e-3c0f-4d55-9a57-5f4a1c2d3e4f',
      },
    })
    expect(userinfo.status).toBe(200)
    expect(userinfo.json).toMatchObject({ sub: consent.consentId, openbanking_intent_id: consent.consentId })
    expect(userinfo.headers['x-fapi-interaction-id']).toBe('0b6a4c2e-3c0f-4d55-9a57-5f4a1c2d3e4f')

    const refreshed = await tpp.tokenRequest(strict, {
      grant_type: 'refresh_token',
      refresh_token: tokens.json.refresh_token,
    })
    expect(refreshed.status).toBe(200)
    const refreshedInfo = await authServer().tokens.verify(refreshed.json.access_token)
    expect(refreshedInfo).toMatchObject({
      grant: 'authorization_code',
      consentId: consent.consentId,
      certificateThumbprint: transportThumbprint(),
    })

    // A code used twice is refused, and everything issued from it is revoked (RFC 6749 4.1.2).
    const again = await tpp.exchangeCode(strict, auth.code!)
    expect(again.status).toBe(400)
    expect(again.json.error).toBe('invalid_grant')
    expect(await authServer().tokens.verify(tokens.json.access_token)).toBeUndefined()
    expect(await authServer().tokens.verify(refreshed.json.access_token)).toBeUndefined()
  })

  it("PIS, alg none request object: pays from the debtor account of the Initiation when it is the PSU's, else from her current account", async () => {
    const own = await newPis(permissive.clientId, '40051277009988')
    const auth = await tpp.authoriseHeadless(permissive, own.consentId, 'openid payments', { alg: 'none' })
    expect(auth.code).toBeDefined()
    expect(await consents().getPis(own.consentId)).toMatchObject({
      status: 'AUTH',
      debtorAccountId: 'acc-amelia-savings',
    })
    const foreign = await newPis(permissive.clientId, '99999999999999')
    await tpp.authoriseHeadless(permissive, foreign.consentId, 'openid payments', { alg: 'none' })
    expect(await consents().getPis(foreign.consentId)).toMatchObject({
      status: 'AUTH',
      debtorAccountId: 'acc-amelia-current',
    })
    const tokens = await tpp.exchangeCode(permissive, auth.code!)
    expect(tokens.status).toBe(200)
    expect(await authServer().tokens.verify(tokens.json.access_token)).toMatchObject({
      consentId: own.consentId,
      grant: 'authorization_code',
    })
  })

  it('client-credentials tokens are bound to the transport certificate and expire with the sandbox clock', async () => {
    const token = await tpp.clientCredentials(strict, 'accounts')
    const info = await authServer().tokens.verify(token)
    expect(info).toMatchObject({
      clientId: strict.clientId,
      grant: 'client_credentials',
      scopes: ['accounts'],
      certificateThumbprint: transportThumbprint(),
    })
    expect(info!.consentId).toBeUndefined()
    expect(await authServer().tokens.verify('not-a-token')).toBeUndefined()
    await env.sandbox.context.clock.advance(2 * 3600 * 1000)
    expect(await authServer().tokens.verify(token)).toBeUndefined()
  })
})
