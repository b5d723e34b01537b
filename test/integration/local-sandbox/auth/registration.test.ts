import 'reflect-metadata'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type * as AuthorisationServerModule from '../../../../src-main/local-sandbox/auth/authorisation-server.ts'
import type { AuthorisationServer } from '../../../../src-main/local-sandbox/auth/types.ts'
import { SandboxClock } from '../../../../src-main/local-sandbox/clock.ts'
import { ConsentStore } from '../../../../src-main/local-sandbox/consents/consent-store.ts'
import { startLocalSandbox } from '../../../../src-main/local-sandbox/index.ts'
import { startTestSandbox, type TestSandbox } from '../support/sandbox-fixture.ts'
import { TestTpp } from '../support/test-tpp.ts'
import { EmbeddedStore } from '../../../../src-main/local-sandbox/store/embedded-store.ts'

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

describe('POST /register', () => {
  it('private_key_jwt: 201 with the DCR 3.2 fields, no secret, the strict profile and the flattened software statement', async () => {
    const res = await tpp.postRegistration(await tpp.signRegistration(tpp.registrationClaims()))
    expect(res.status).toBe(201)
    expect(res.headers['x-fapi-interaction-id']).toBeTruthy()
    const body = res.json
    expect(body.client_id).toMatch(/^[0-9a-f-]{36}$/)
    expect(body).toMatchObject({
      redirect_uris: [tpp.kit.redirectUris[0]],
      token_endpoint_auth_method: 'private_key_jwt',
      token_endpoint_auth_signing_alg: 'PS256',
      grant_types: ['authorization_code', 'client_credentials', 'refresh_token'],
      response_types: ['code id_token'],
      scope: 'openid accounts payments',
      software_id: tpp.kit.softwareId,
      software_statement: tpp.kit.ssa,
      application_type: 'web',
      id_token_signed_response_alg: 'PS256',
      request_object_signing_alg: 'PS256',
      subject_type: 'public',
      sandbox_profile: 'strict',
      org_id: tpp.kit.orgId,
      software_roles: ['AISP', 'PISP'],
    })
    expect(typeof body.client_id_issued_at).toBe('number')
    expect(body.client_secret).toBeUndefined()
    expect(await authServer().clients.get(body.client_id)).toEqual({
      clientId: body.client_id,
      orgId: tpp.kit.orgId,
      softwareId: tpp.kit.softwareId,
      softwareRoles: ['AISP', 'PISP'],
      redirectUris: [tpp.kit.redirectUris[0]],
      tokenEndpointAuthMethod: 'private_key_jwt',
      profile: { security: 'strict', headless: false },
      registeredWithCertificate: expect.any(String),
    })
  })

  it('client_secret_basic: a secret that never expires and the permissive profile; works at the token endpoint', async () => {
    const client = await tpp.register({ authMethod: 'client_secret_basic' })
    expect(client.registration).toMatchObject({
      token_endpoint_auth_method: 'client_secret_basic',
      client_secret_expires_at: 0,
      sandbox_profile: 'permissive',
      request_object_signing_alg: 'none',
    })
    expect(client.clientSecret).toMatch(/^[A-Za-z0-9_-]{32}$/)
    const token = await tpp.clientCredentials(client, 'payments')
    expect(await authServer().tokens.verify(token)).toMatchObject({
      clientId: client.clientId,
      grant: 'client_credentials',
      scopes: ['payments'],
    })
  })

  it('accepts application/jose and application/json with a JWT string body, and a chosen sandbox_profile', async () => {
    const jose = await tpp.postRegistration(
      await tpp.signRegistration(tpp.registrationClaims({ sandbox_profile: 'strict-headless' })),
      'application/jose',
    )
    expect(jose.status).toBe(201)
    expect(jose.json.sandbox_profile).toBe('strict-headless')
    const json = await tpp.postRegistration(
      JSON.stringify(
        await tpp.signRegistration(
          tpp.registrationClaims({ sandbox_profile: 'permissive-headless', request_object_signing_alg: 'none' }),
        ),
      ),
      'application/json',
    )
    expect(json.status).toBe(201)
    expect(json.json.sandbox_profile).toBe('permissive-headless')
    expect((await authServer().clients.get(json.json.client_id))!.profile).toEqual({
      security: 'permissive',
      headless: true,
    })
  })
})

describe('GET / PUT / DELETE /register/{ClientId}', () => {
  it('reads, updates (all claims re-validated) and deletes with a client-credentials token of the client', async () => {
    const client = await tpp.register()
    const url = `${await tpp.registrationEndpoint()}/${client.clientId}`
    const token = await tpp.clientCredentials(client, 'accounts')
    const auth = { authorization: `Bearer ${token}` }

    const read = await tpp.call('GET', url, { headers: auth })
    expect(read.status).toBe(200)
    expect(read.json).toEqual(client.registration)

    const claims = tpp.registrationClaims({
      redirect_uris: tpp.kit.redirectUris.slice(0, 2),
      sandbox_profile: 'strict-headless',
      scope: 'openid accounts',
    })
    const updated = await tpp.call('PUT', url, {
      headers: { ...auth, 'content-type': 'application/jwt' },
      body: await tpp.signRegistration(claims),
    })
    expect(updated.status).toBe(200)
    expect(updated.json).toMatchObject({
      client_id: client.clientId,
      redirect_uris: tpp.kit.redirectUris.slice(0, 2),
      sandbox_profile: 'strict-headless',
      scope: 'openid accounts',
    })
    expect(updated.json.client_id_issued_at).toBe(client.registration.client_id_issued_at)
    // Issued tokens stay valid after an update (DCR 3.2).
    expect(await authServer().tokens.verify(token)).toMatchObject({ clientId: client.clientId })

    const badUpdate = await tpp.call('PUT', url, {
      headers: { ...auth, 'content-type': 'application/jwt' },
      body: await tpp.signRegistration(tpp.registrationClaims({ subject_type: 'pairwise' })),
    })
    expect(badUpdate.status).toBe(400)
    expect(badUpdate.json.error).toBe('invalid_client_metadata')

    const deleted = await tpp.call('DELETE', url, { headers: auth })
    expect(deleted.status).toBe(204)
    expect(await authServer().tokens.verify(token)).toBeUndefined()
    expect(await authServer().clients.get(client.clientId)).toBeUndefined()
    const after = await tpp.call('GET', url, { headers: auth })
    expect(after.status).toBe(401)
    expect(after.headers['www-authenticate']).toMatch(/^Bearer /)
    const tokenAfter = await tpp.tokenRequest(client, { grant_type: 'client_credentials', scope: 'accounts' })
    expect(tokenAfter.status).toBe(401)
    expect(tokenAfter.json.error).toBe('invalid_client')
  })
})

describe('persistence', () => {
  it('every answered change is stored before the answer: readable by another reader of the store with no stop()', async () => {
    const client = await tpp.register({ overrides: { sandbox_profile: 'strict-headless' } })
    const cc = await tpp.clientCredentials(client, 'accounts')
    const consent = await tpp.call('POST', `${env.sandbox.baseUrl}/open-banking/v4.0/aisp/account-access-consents`, {
      headers: { authorization: `Bearer ${cc}`, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ Data: { Permissions: ['ReadAccountsBasic'] }, Risk: {} }),
    })
    expect(consent.status).toBe(201)
    const consentId = consent.json.Data.ConsentId as string
    const auth = await tpp.authoriseHeadless(client, consentId, 'openid accounts')
    const tokens = await tpp.exchangeCode(client, auth.code!)
    expect(tokens.status).toBe(200)
    // Another reader of the same state, as a process started after a kill would be: the data directory's
    // files (embedded), or the database (with OB_TEST_STORE=postgres).
    const { layout, store } = env.sandbox.context
    const reader = store.backend === 'embedded' ? new EmbeddedStore(layout) : store
    const stored = async (model: string, id: string) => (await reader.oidc.find(model, id))?.payload
    expect((await stored('Client', client.clientId))?.client_id).toBe(client.clientId)
    expect((await stored('ClientCredentials', cc))?.clientId).toBe(client.clientId)
    expect((await stored('AccessToken', tokens.json.access_token))?.clientId).toBe(client.clientId)
    expect((await stored('RefreshToken', tokens.json.refresh_token))?.clientId).toBe(client.clientId)
    expect(await new ConsentStore(reader, new SandboxClock()).getAis(consentId)).toMatchObject({
      status: 'AUTH',
      clientId: client.clientId,
    })
    // The running sandbox keeps serving the same state.
    expect(await authServer().tokens.verify(tokens.json.access_token)).toMatchObject({
      consentId,
      grant: 'authorization_code',
    })
  })

  it('clients, tokens and the jti replay cache survive a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ob-auth-restart-'))
    const first = await startLocalSandbox({ dataDir, port: 0, log: () => {} })
    let firstTpp: TestTpp | undefined
    let secondTpp: TestTpp | undefined
    let second: Awaited<ReturnType<typeof startLocalSandbox>> | undefined
    let firstStopped = false
    try {
      const kit = await first.context.directory.onboard({ roles: ['AISP'] })
      firstTpp = new TestTpp(
        {
          baseUrl: first.baseUrl,
          authUrl: first.authUrl,
          directoryUrl: first.directoryUrl,
          caBundlePem: first.caBundlePem,
        },
        kit,
      )
      const claims = firstTpp.registrationClaims({ scope: 'openid accounts', aud: first.authUrl })
      const jwt = await firstTpp.signRegistration(claims)
      const created = await firstTpp.postRegistration(jwt)
      expect(created.status).toBe(201)
      const client = {
        clientId: created.json.client_id,
        authMethod: 'private_key_jwt' as const,
        registration: created.json,
      }
      const token = await firstTpp.clientCredentials(client, 'accounts')
      await first.stop()
      firstStopped = true

      second = await startLocalSandbox({ dataDir, port: 0, log: () => {} })
      secondTpp = new TestTpp(
        {
          baseUrl: second.baseUrl,
          authUrl: second.authUrl,
          directoryUrl: second.directoryUrl,
          caBundlePem: second.caBundlePem,
        },
        kit,
      )
      expect(await authServer().clients.get(client.clientId)).toMatchObject({
        softwareId: kit.softwareId,
        profile: { security: 'strict', headless: false },
      })
      expect(await authServer().tokens.verify(token)).toMatchObject({
        clientId: client.clientId,
        grant: 'client_credentials',
      })
      const read = await secondTpp.call(
        'GET',
        `${second.baseUrl}/dynamic-client-registration/v3.2/register/${client.clientId}`,
        { headers: { authorization: `Bearer ${token}` } },
      )
      expect(read.status).toBe(200)
      // The same JWT again (its aud names the first run's address, so re-sign the same jti for this one).
      const replay = await secondTpp.postRegistration(
        await secondTpp.signRegistration({ ...claims, aud: second.authUrl }),
      )
      expect(replay.status).toBe(400)
      expect(replay.json.error).toBe('invalid_client_metadata')
      expect(replay.json.error_description).toContain('was already used')
    } finally {
      await firstTpp?.close()
      if (!firstStopped) await first.stop()
      await secondTpp?.close()
      await second?.stop()
      rmSync(dataDir, { recursive: true, force: true })
    }
  })
})
