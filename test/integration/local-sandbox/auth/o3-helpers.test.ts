import 'reflect-metadata'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startLocalSandbox } from '../../../../src-main/local-sandbox/index.ts'
import { startTestSandbox, type TestSandbox } from '../support/sandbox-fixture.ts'
import { halfHash, TestTpp, type RegisteredTestClient } from '../support/test-tpp.ts'

let env: TestSandbox
let tpp: TestTpp
let headless: RegisteredTestClient
let pages: RegisteredTestClient

beforeAll(async () => {
  env = await startTestSandbox()
  tpp = await env.onboard({ roles: ['AISP', 'PISP'] })
  headless = await tpp.register({
    authMethod: 'client_secret_basic',
    overrides: { sandbox_profile: 'permissive-headless' },
  })
  pages = await tpp.register({ authMethod: 'client_secret_basic' })
})
afterAll(async () => {
  await env?.stop()
})

const basic = (c: RegisteredTestClient) => ({
  authorization: `Basic ${Buffer.from(`${c.clientId}:${c.clientSecret}`).toString('base64')}`,
})

describe('GET /o3/v1.0/auth-code-url/{ConsentId}', () => {
  it('builds the URL (alg none request object, state and nonce returned); a headless client lands on its redirect URI', async () => {
    const consent = await env.sandbox.context.consents.createPis({
      clientId: headless.clientId,
      data: {
        Initiation: {
          InstructionIdentification: 'i',
          EndToEndIdentification: 'e',
          InstructedAmount: { Amount: '5.00', Currency: 'GBP' },
          CreditorAccount: { SchemeName: 'UK.OBIE.SortCodeAccountNumber', Identification: '11111111111111', Name: 'X' },
        },
      },
      risk: {},
    })
    const res = await tpp.call(
      'GET',
      `${env.sandbox.baseUrl}/o3/v1.0/auth-code-url/${consent.consentId}?scope=payments&alg=none`,
      { headers: basic(headless) },
    )
    expect(res.status).toBe(200)
    expect(res.json).toMatchObject({
      consentId: consent.consentId,
      clientId: headless.clientId,
      scope: 'openid payments',
      redirectUri: tpp.kit.redirectUris[0],
    })
    expect(res.json.url.startsWith(`${env.sandbox.authUrl}/auth?`)).toBe(true)
    const request = new URL(res.json.url).searchParams.get('request')!
    expect(request.endsWith('.')).toBe(true)
    const claims = JSON.parse(Buffer.from(request.split('.')[1]!, 'base64url').toString())
    expect(claims).toMatchObject({
      iss: headless.clientId,
      aud: env.sandbox.authUrl,
      state: res.json.state,
      nonce: res.json.nonce,
    })
    expect(claims.exp - claims.iat).toBe(600)

    const { params } = await tpp.followToRedirectUri(res.json.url)
    expect(params.get('state')).toBe(res.json.state)
    const idToken = JSON.parse(Buffer.from(params.get('id_token')!.split('.')[1]!, 'base64url').toString())
    expect(idToken).toMatchObject({
      nonce: res.json.nonce,
      openbanking_intent_id: consent.consentId,
      s_hash: halfHash(res.json.state),
      c_hash: halfHash(params.get('code')!),
    })
    const tokens = await tpp.exchangeCode(headless, params.get('code')!)
    expect(tokens.status).toBe(200)
  })

  it("authenticates a caller by its client-credentials token too; a non-headless client's URL opens the login page", async () => {
    const consent = await env.sandbox.context.consents.createAis({
      clientId: pages.clientId,
      permissions: ['ReadAccountsBasic'],
    })
    const token = await tpp.clientCredentials(pages, 'accounts')
    const res = await tpp.call('GET', `${env.sandbox.baseUrl}/o3/v1.0/auth-code-url/${consent.consentId}`, {
      headers: { authorization: `Bearer ${token}` },
    })
    expect(res.status).toBe(200)
    expect(res.json.scope).toBe('openid accounts')
    const page = await tpp.call('GET', res.json.url, { mtls: false })
    expect(page.status).toBe(303)
    expect(page.headers.location).toMatch(/^\/interaction\//)
  })
})

describe('GET /o3/v1.0/postman/environment', () => {
  it('returns a Postman v2.1 environment pre-filled with the sandbox addresses and the client', async () => {
    const res = await tpp.call('GET', `${env.sandbox.baseUrl}/o3/v1.0/postman/environment?client_id=${pages.clientId}`)
    expect(res.status).toBe(200)
    expect(res.headers['content-disposition']).toMatch(/attachment; filename=".*\.postman_environment\.json"/)
    expect(res.json._postman_variable_scope).toBe('environment')
    expect(typeof res.json.id).toBe('string')
    const values = Object.fromEntries(
      (res.json.values as Array<{ key: string; value: string; type: string; enabled: boolean }>).map((v) => [v.key, v]),
    )
    for (const v of Object.values(values)) expect(v).toMatchObject({ type: 'default', enabled: true })
    expect(values.rs!.value).toBe(env.sandbox.baseUrl)
    expect(values.issuer!.value).toBe(env.sandbox.authUrl)
    expect(values.tokenEndpoint!.value).toBe(`${env.sandbox.authUrl}/token`)
    expect(values.authEndpoint!.value).toBe(`${env.sandbox.authUrl}/auth`)
    expect(values.registrationEndpoint!.value).toBe(`${env.sandbox.baseUrl}/dynamic-client-registration/v3.2/register`)
    expect(values['jwks-uri']!.value).toBe(`${env.sandbox.authUrl}/jwks`)
    expect(values.client_id!.value).toBe(pages.clientId)
    expect(values.client_secret!.value).toBe(pages.clientSecret)
    expect(values.aisBasePath!.value).toBe(`${env.sandbox.baseUrl}/open-banking/v4.0/aisp`)
    expect(values.pisBasePath!.value).toBe(`${env.sandbox.baseUrl}/open-banking/v4.0/pisp`)
  })
})

describe('oidc-provider notices', () => {
  it('go to the sandbox log, never to stdout', async () => {
    const written: string[] = []
    const stdout = vi
      .spyOn(process.stdout, 'write')
      .mockImplementation((chunk: string | Uint8Array) => (written.push(String(chunk)), true))
    const spies = (['log', 'info', 'warn'] as const).map((m) => vi.spyOn(console, m))
    const dataDir = mkdtempSync(join(tmpdir(), 'ob-auth-stdout-'))
    const logs: string[] = []
    const sandbox = await startLocalSandbox({ dataDir, port: 0, log: (l) => logs.push(l) })
    let client: TestTpp | undefined
    try {
      client = new TestTpp(
        {
          baseUrl: sandbox.baseUrl,
          authUrl: sandbox.authUrl,
          directoryUrl: sandbox.directoryUrl,
          caBundlePem: sandbox.caBundlePem,
        },
        await sandbox.context.directory.onboard({}),
      )
      const registered = await client.register({ overrides: { sandbox_profile: 'strict-headless' } })
      const consent = await sandbox.context.consents.createAis({
        clientId: registered.clientId,
        permissions: ['ReadAccountsBasic'],
      })
      const auth = await client.authoriseHeadless(registered, consent.consentId, 'openid accounts')
      expect((await client.exchangeCode(registered, auth.code!)).status).toBe(200)
      for (const spy of spies) expect(spy.mock.calls.flat().join(' ')).not.toMatch(/oidc-provider/)
      expect(written.join('')).not.toMatch(/oidc-provider/)
      expect(logs.some((l) => l.includes('registered client'))).toBe(true)
    } finally {
      stdout.mockRestore()
      for (const spy of spies) spy.mockRestore()
      await client?.close()
      await sandbox.stop()
      rmSync(dataDir, { recursive: true, force: true })
    }
  })
})
