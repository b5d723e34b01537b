import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestSandbox, type TestSandbox } from '../support/sandbox-fixture.ts'
import type { TestTpp } from '../support/test-tpp.ts'

describe("a wrong method on the authorisation server's endpoints: 405 with Allow and an OAuth error body", () => {
  let s: TestSandbox
  let tpp: TestTpp
  beforeAll(async () => {
    s = await startTestSandbox()
    tpp = await s.onboard()
  })
  afterAll(async () => s?.stop())

  it.each([
    ['GET', 'auth', '/token', 'POST'],
    ['PUT', 'auth', '/token', 'POST'],
    ['DELETE', 'base', '/me', 'GET, POST'],
    ['POST', 'auth', '/jwks', 'GET'],
    ['DELETE', 'auth', '/.well-known/openid-configuration', 'GET'],
    ['PUT', 'auth', '/auth', 'GET, POST'],
    ['POST', 'auth', '/app/consent-access-request', 'GET'],
  ] as const)('%s %s %s', async (method, origin, path, allow) => {
    const url = `${origin === 'base' ? s.sandbox.baseUrl : s.sandbox.authUrl}${path}`
    const res = await tpp.call(method, url, { mtls: origin === 'base' || path === '/token' })
    expect(res.status, res.text).toBe(405)
    expect(res.headers.allow).toBe(allow)
    expect(res.headers['content-type']).toMatch(/^application\/json/)
    expect(res.json).toMatchObject({ error: 'invalid_request' })
    expect(res.json.error_description).toContain(`allowed: ${allow}`)
  })

  it('the right methods still work', async () => {
    expect((await tpp.call('GET', `${s.sandbox.authUrl}/jwks`, { mtls: false })).status).toBe(200)
    expect(
      (await tpp.call('GET', `${s.sandbox.authUrl}/.well-known/openid-configuration`, { mtls: false })).status,
    ).toBe(200)
    // POST /token without a grant is an OAuth error from the token endpoint itself, not a 405.
    const token = await tpp.call('POST', `${s.sandbox.authUrl}/token`, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    })
    expect(token.status).not.toBe(405)
    expect(token.json.error).toBeTruthy()
  })

  it('the token endpoint is on {auth_url} and needs the client certificate there; {base_url}/token says where it is', async () => {
    const noCert = await tpp.call('POST', `${s.sandbox.authUrl}/token`, {
      mtls: false,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    })
    expect(noCert.status).toBe(401)
    expect(noCert.json.error).toBe('invalid_client')
    const client = await tpp.register({ overrides: { scope: 'openid accounts' } })
    expect((await tpp.tokenRequest(client, { grant_type: 'client_credentials', scope: 'accounts' })).status).toBe(200)
    const old = await tpp.call('POST', `${s.sandbox.baseUrl}/token`, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    })
    expect(old.status).toBe(404)
    expect(old.json.error_description).toContain(`${s.sandbox.authUrl}/token`)
  })
})
