import 'reflect-metadata'
import { connect } from 'node:tls'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startTestSandbox, type TestSandbox } from '../support/sandbox-fixture.ts'
import type { HttpResponse, RegisteredTestClient, TestTpp } from '../support/test-tpp.ts'

// Request-derived values the sandbox echoes in response headers, over real mutual TLS: control
// characters, CR LF, quotes, backslashes, very long and non-ASCII values. Never a 500: a clear 4xx
// whose headers hold printable ASCII only.

let env: TestSandbox
let tpp: TestTpp
let client: RegisteredTestClient

beforeAll(async () => {
  env = await startTestSandbox()
  tpp = await env.onboard({ roles: ['AISP', 'PISP'] })
  client = await tpp.register()
})
afterAll(async () => {
  await env?.stop()
})
// After every hostile value the server still serves.
afterEach(async () => {
  const discovery = await tpp.call('GET', `${env.sandbox.authUrl}/.well-known/openid-configuration`, { mtls: false })
  expect(discovery.status).toBe(200)
})

const HOSTILE: Array<[string, string]> = [
  ['a line feed', 'client\nid'],
  ['CR LF and a header of its own', 'client\r\nSet-Cookie: stolen=1'],
  ['a NUL', 'client\u0000id'],
  ['a tab and DEL', 'client\tid\u007f'],
  ['double quotes and a backslash', 'client"id\\", error="forged'],
  ['non-ASCII letters', 'clïent-ídé'],
  ['an emoji', 'client-\u{1F600}'],
  ['5,000 characters', 'x'.repeat(5000)],
]

function expectPrintableHeaders(res: HttpResponse): void {
  for (const [name, value] of Object.entries(res.headers)) {
    for (const v of Array.isArray(value) ? value : [value]) {
      expect(String(v), `header ${name}`).toMatch(/^[\x20-\x7e]*$/)
      expect(String(v).length, `header ${name}`).toBeLessThanOrEqual(2048)
    }
  }
  expect(res.headers['set-cookie']).toBeUndefined()
}

describe('registration management with a hostile client id in the path (it reaches WWW-Authenticate)', () => {
  it.each(HOSTILE)('%s: 401 invalid_token with a clean, bounded Bearer challenge', async (_label, clientId) => {
    // A fresh token each time: the sandbox revokes the token used for an unknown client.
    const fresh = await tpp.clientCredentials(client, 'accounts')
    const res = await tpp.call('GET', `${await tpp.registrationEndpoint()}/${encodeURIComponent(clientId)}`, {
      headers: { authorization: `Bearer ${fresh}` },
    })
    expect(res.status, res.text).toBe(401)
    expect(res.json?.error).toBe('invalid_token')
    // The body (JSON) keeps the value as sent, cut to its own limit; the header holds a safe copy.
    expect(res.json?.error_description).toContain(`no client ${clientId.slice(0, 100)}`)
    expectPrintableHeaders(res)
    const challenge = String(res.headers['www-authenticate'])
    expect(challenge).toMatch(/^Bearer error="invalid_token", error_description="[^"\\]*"$/)
    expect(challenge.length).toBeLessThan(400)
  })

  it('the token used for an unknown client is revoked even when the id is hostile (DCR 3.2)', async () => {
    const own = await tpp.clientCredentials(client, 'accounts')
    const first = await tpp.call('GET', `${await tpp.registrationEndpoint()}/${encodeURIComponent('bad\r\nid')}`, {
      headers: { authorization: `Bearer ${own}` },
    })
    expect(first.status).toBe(401)
    const again = await tpp.call('GET', `${await tpp.registrationEndpoint()}/${encodeURIComponent(client.clientId)}`, {
      headers: { authorization: `Bearer ${own}` },
    })
    expect(again.status).toBe(401)
    expect(again.json?.error_description).toMatch(/unknown, expired or revoked/)
  })
})

describe('the token endpoint with a hostile client id', () => {
  it.each(HOSTILE)('%s in the form: a 4xx OAuth error, clean headers', async (_label, clientId) => {
    const body = new URLSearchParams({
      grant_type: 'client_credentials',
      scope: 'accounts',
      client_id: clientId,
    }).toString()
    const res = await tpp.call('POST', await tpp.tokenEndpoint(), {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
    })
    expect(res.status, res.text).toBeGreaterThanOrEqual(400)
    expect(res.status, res.text).toBeLessThan(500)
    expect(typeof res.json?.error).toBe('string')
    expectPrintableHeaders(res)
  })

  it.each(HOSTILE)('%s in Authorization: Basic: a 4xx OAuth error, clean headers', async (_label, clientId) => {
    const basic = Buffer.from(`${encodeURIComponent(clientId)}:secret`).toString('base64')
    const res = await tpp.call('POST', await tpp.tokenEndpoint(), {
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${basic}` },
      body: 'grant_type=client_credentials&scope=accounts',
    })
    expect(res.status, res.text).toBeGreaterThanOrEqual(400)
    expect(res.status, res.text).toBeLessThan(500)
    expectPrintableHeaders(res)
  })
})

describe('the O3 helpers with a hostile client id', () => {
  it.each(HOSTILE)('%s in client_secret_basic: 401 invalid_client, clean headers', async (_label, clientId) => {
    const basic = Buffer.from(`${encodeURIComponent(clientId)}:secret`).toString('base64')
    const res = await tpp.call(
      'GET',
      `${env.sandbox.baseUrl}/o3/v1.0/postman/environment?client_id=${encodeURIComponent(clientId)}`,
      { headers: { authorization: `Basic ${basic}` } },
    )
    expect(res.status, res.text).toBeGreaterThanOrEqual(400)
    expect(res.status, res.text).toBeLessThan(500)
    expectPrintableHeaders(res)
  })
})

describe('the resource server with a hostile bearer token and interaction id', () => {
  it.each(HOSTILE.filter(([, v]) => /^[\x20-\x7e]*$/.test(v)))(
    '%s as the token: 401 with a clean challenge',
    async (_label, value) => {
      const res = await tpp.call('GET', `${env.sandbox.baseUrl}/open-banking/v4.0/aisp/accounts`, {
        headers: { authorization: `Bearer ${value}`, 'x-fapi-interaction-id': value },
      })
      expect(res.status, res.text).toBe(401)
      expectPrintableHeaders(res)
      expect(String(res.headers['www-authenticate'])).toMatch(
        /^Bearer error="invalid_token", error_description="[^"\\]*"$/,
      )
      expect(String(res.headers['x-fapi-interaction-id'])).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
      )
    },
  )
})

/** One raw HTTP/1.1 request over mutual TLS, bytes as given (latin1): what a hostile client can send that undici refuses to. */
function rawRequest(url: string, head: string): Promise<{ status: number; head: string }> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve, reject) => {
    const socket = connect({
      host: hostname,
      port: Number(port),
      ca: env.sandbox.caBundlePem,
      cert: tpp.kit.transportCertPem,
      key: tpp.kit.transportKeyPem,
      servername: 'localhost',
    })
    let received = Buffer.alloc(0)
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer in 10 s')))
    socket.on('secureConnect', () => socket.write(Buffer.from(head, 'latin1')))
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk])
      const end = received.indexOf('\r\n\r\n')
      if (end >= 0) {
        socket.destroy()
        const text = received.subarray(0, end).toString('latin1')
        resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]), head: text })
      }
    })
    socket.on('error', reject)
  })
}

describe('header bytes undici will not send (raw TLS)', () => {
  it('a latin-1 Origin on the JWKS is echoed as printable ASCII', async () => {
    const { host } = new URL(env.sandbox.authUrl)
    const res = await rawRequest(
      env.sandbox.authUrl,
      `GET /jwks HTTP/1.1\r\nHost: ${host}\r\nOrigin: https://\xe9vil.example\r\nConnection: close\r\n\r\n`,
    )
    expect(res.status).toBe(200)
    const allow = /\r\naccess-control-allow-origin: ([^\r]*)/i.exec(res.head)?.[1]
    expect(allow).toBe('https://?vil.example')
  })

  it('a latin-1 client id in the registration path is a 401 with a printable challenge', async () => {
    const { host } = new URL(env.sandbox.baseUrl)
    const path = new URL(await tpp.registrationEndpoint()).pathname
    const fresh = await tpp.clientCredentials(client, 'accounts')
    const res = await rawRequest(
      env.sandbox.baseUrl,
      `GET ${path}/%C3%A9%0D%0A HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${fresh}\r\nConnection: close\r\n\r\n`,
    )
    expect(res.status).toBe(401)
    expect(res.head).toMatch(
      /\r\nwww-authenticate: Bearer error="invalid_token", error_description="no client \?\?\? is registered[^\r]*\r?/i,
    )
  })
})
