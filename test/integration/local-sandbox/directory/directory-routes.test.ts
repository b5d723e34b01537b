import { createPrivateKey, webcrypto, X509Certificate } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Koa from 'koa'
import { compactVerify, createLocalJWKSet, decodeJwt } from 'jose'
import { Agent, request } from 'undici'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { SandboxClock } from '../../../../src-main/local-sandbox/clock.ts'
import { dataDirLayout } from '../../../../src-main/local-sandbox/data-dir.ts'
import { createDirectory, type LocalDirectory } from '../../../../src-main/local-sandbox/directory/directory.ts'
import { loadOrCreatePki } from '../../../../src-main/local-sandbox/pki/ecosystem-pki.ts'
import type { EcosystemPki } from '../../../../src-main/local-sandbox/pki/types.ts'
import { makeRsaKeyPairsAhead, rsaKeyPairsAhead } from '../../../../src-main/plumbing/rsa-key-pairs.ts'

// The directory's origin alone, served over HTTPS with the sandbox's server certificate (the other
// origins are not needed for these endpoints).
describe('the directory over HTTPS', () => {
  const root = mkdtempSync(join(tmpdir(), 'ob-directory-routes-'))
  let server: Server
  let url: string
  let agent: Agent
  let pki: EcosystemPki
  let directory: LocalDirectory
  const clock = new SandboxClock()
  const logs: string[] = []

  beforeAll(async () => {
    const layout = dataDirLayout(root)
    pki = await loadOrCreatePki(layout)
    server = createServer({ key: pki.serverTls.keyPem, cert: pki.serverTls.certPem })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`
    const addresses = { baseUrl: 'https://127.0.0.1:1', authUrl: 'https://127.0.0.1:2', directoryUrl: url }
    directory = await createDirectory({ addresses, layout, clock, pki, log: (l) => logs.push(l) })
    const app = new Koa()
    app.use(directory.routes())
    server.on('request', app.callback())
    agent = new Agent({ connect: { ca: pki.caBundlePem }, connections: 1 })
  })

  afterAll(async () => {
    await agent.close()
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
    rmSync(root, { recursive: true, force: true })
  })

  async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const res = await request(url + path, {
      method: method as 'GET',
      dispatcher: agent,
      headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    })
    const text = await res.body.text()
    return { status: res.statusCode, headers: res.headers, json: JSON.parse(text) }
  }

  it('serves the directory JWKS: the PS256 public key that signs SSAs', async () => {
    const res = await call('GET', '/jwks')
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toMatch(/^application\/json/)
    expect(res.json).toEqual(directory.publicJwks())
    expect(res.json.keys[0]).toMatchObject({ kty: 'RSA', alg: 'PS256', use: 'sig' })
    expect(res.json.keys[0]).not.toHaveProperty('d')
  })

  it('onboards with POST /tpps: 201, the whole starter kit, an SSA verifiable with GET /jwks', async () => {
    const res = await call('POST', '/tpps', {
      orgName: 'Route Org',
      clientName: 'Route App',
      roles: ['AISP'],
      redirectUris: ['https://127.0.0.1:9999/cb'],
    })
    expect(res.status).toBe(201)
    expect(res.headers['cache-control']).toBe('no-store')
    expect(res.headers.location).toBe(`${url}/tpps/${res.json.softwareId}`)
    const kit = res.json
    expect(kit).toMatchObject({
      orgName: 'Route Org',
      clientName: 'Route App',
      roles: ['AISP'],
      redirectUris: ['https://127.0.0.1:9999/cb'],
      caBundlePem: pki.caBundlePem,
      rootCaPem: pki.rootCaPem,
      issuingCaPem: pki.issuingCaPem,
    })
    expect(kit.signingKeyPem).toMatch(/-----BEGIN (?:)PRIVATE KEY-----/)
    expect(kit.transportKeyPem).toMatch(/-----BEGIN (?:)PRIVATE KEY-----/)
    expect(new X509Certificate(kit.transportCertPem).subject).toContain(`CN=${kit.softwareId}`)

    const jwks = createLocalJWKSet((await call('GET', '/jwks')).json)
    const { protectedHeader } = await compactVerify(kit.ssa, jwks)
    expect(protectedHeader.alg).toBe('PS256')
    expect(decodeJwt(kit.ssa).software_jwks_endpoint).toBe(
      `${url}/organisation/${kit.orgId}/software/${kit.softwareId}/jwks`,
    )

    // The endpoints the SSA names answer.
    const softwareJwks = await call('GET', `/organisation/${kit.orgId}/software/${kit.softwareId}/jwks`)
    expect(softwareJwks.status).toBe(200)
    expect(softwareJwks.json).toEqual(kit.jwks)
    expect((await call('GET', `/organisation/${kit.orgId}/software/${kit.softwareId}/revoked/jwks`)).json).toEqual({
      keys: [],
    })
    expect((await call('GET', `/organisation/${kit.orgId}/jwks`)).json).toEqual(kit.jwks)
    expect((await call('GET', `/organisation/${kit.orgId}/revoked/jwks`)).json).toEqual({ keys: [] })

    const record = await call('GET', `/tpps/${kit.softwareId}`)
    expect(record.status).toBe(200)
    expect(record.json).toMatchObject({
      orgId: kit.orgId,
      softwareId: kit.softwareId,
      orgStatus: 'Active',
      jwks: kit.jwks,
    })
    expect(JSON.stringify(record.json)).not.toMatch(/PRIVATE KEY/)
    expect((await call('GET', '/tpps')).json.tpps.map((t: { softwareId: string }) => t.softwareId)).toContain(
      kit.softwareId,
    )
  })

  it('gives a TPP the key pairs a command made ahead, then makes new ones for the next', async () => {
    makeRsaKeyPairsAhead('RSA-PSS')
    makeRsaKeyPairsAhead('RSASSA-PKCS1-v1_5')
    const generateKey = vi.spyOn(webcrypto.subtle, 'generateKey')
    try {
      const first = (await call('POST', '/tpps')).json
      expect(generateKey).not.toHaveBeenCalled()
      expect([rsaKeyPairsAhead('RSA-PSS'), rsaKeyPairsAhead('RSASSA-PKCS1-v1_5')]).toEqual([0, 0])
      const second = (await call('POST', '/tpps')).json
      expect(generateKey.mock.calls.map(([algorithm]) => (algorithm as { name: string }).name).sort()).toEqual([
        'RSA-PSS',
        'RSASSA-PKCS1-v1_5',
      ])
      for (const kit of [first, second]) {
        expect(createPrivateKey(kit.signingKeyPem).asymmetricKeyDetails?.modulusLength).toBe(2048)
        expect(createPrivateKey(kit.transportKeyPem).asymmetricKeyDetails?.modulusLength).toBe(2048)
      }
      expect(second.signingKeyPem).not.toBe(first.signingKeyPem)
      expect(second.transportKeyPem).not.toBe(first.transportKeyPem)
    } finally {
      generateKey.mockRestore()
    }
  })

  it('onboards with an empty body (all defaults)', async () => {
    const res = await call('POST', '/tpps')
    expect(res.status).toBe(201)
    expect(res.json.roles).toEqual(['AISP', 'PISP'])
    expect(res.json.redirectUris).toHaveLength(3)
  })

  it.each([
    [{ redirectUris: ['http://example.com/cb'] }, 400, 'invalid_redirect_uri', /not a loopback IP/],
    [{ redirectUris: ['https://x.example/cb#f'] }, 400, 'invalid_redirect_uri', /fragment/],
    [{ roles: ['CBPII'] }, 400, 'invalid_client_metadata', /not supported/],
    [{ redirect_uris: [] }, 400, 'invalid_request', /unknown field "redirect_uris"/],
    ['{"roles": [', 400, 'invalid_request', /not valid JSON/],
    [[1, 2], 400, 'invalid_request', /must be a JSON object/],
  ])('refuses bad onboarding input %j with %d %s', async (body, status, error, message) => {
    const res = await call('POST', '/tpps', body)
    expect(res.status).toBe(status)
    expect(res.json.error).toBe(error)
    expect(res.json.error_description).toMatch(message)
  })

  it('refuses a body that is not JSON with 415, and an oversized one with 413', async () => {
    const res = await call('POST', '/tpps', 'roles=AISP', { 'content-type': 'application/x-www-form-urlencoded' })
    expect(res.status).toBe(415)
    expect(res.json.error_description).toMatch(/Content-Type: application\/json/)
    const big = await call('POST', '/tpps', JSON.stringify({ orgName: 'x'.repeat(70_000) }))
    expect(big.status).toBe(413)
    expect(big.json.error).toBe('invalid_request')
  })

  it('answers 404 JSON for an unknown software, organisation or path', async () => {
    const unknownSoftware = await call('GET', '/organisation/0015800001NOSUCHOR/software/NoSuchSoftware/jwks')
    expect(unknownSoftware.status).toBe(404)
    expect(unknownSoftware.json).toEqual({
      error: 'not_found',
      error_description: expect.stringMatching(
        /no software statement NoSuchSoftware in organisation 0015800001NOSUCHOR/,
      ),
    })
    expect((await call('GET', '/organisation/0015800001NOSUCHOR/jwks')).status).toBe(404)
    expect((await call('GET', '/tpps/..%2Fsigning-key')).status).toBe(404)
    const noPath = await call('GET', '/nothing-here')
    expect(noPath.status).toBe(404)
    expect(noPath.json.error_description).toMatch(
      /no endpoint GET \/nothing-here on the local directory; it serves GET \/jwks/,
    )
  })

  it('answers 404 when the software exists but under another organisation', async () => {
    const kit = (await call('POST', '/tpps', {})).json
    expect((await call('GET', `/organisation/0015800001OTHERORG/software/${kit.softwareId}/jwks`)).status).toBe(404)
  })

  it('answers 405 JSON for a wrong method on a known path', async () => {
    const res = await call('DELETE', '/jwks')
    expect(res.status).toBe(405)
    expect(res.json.error).toBe('method_not_allowed')
    expect(res.json.error_description).toMatch(/allowed: .*GET/)
  })

  it('reads and advances the sandbox clock, refusing to go backwards', async () => {
    const before = await call('GET', '/admin/clock')
    expect(before.status).toBe(200)
    expect(before.json).toEqual({
      now: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/),
      offsetSeconds: 0,
    })

    const day = await call('POST', '/admin/clock', { advanceSeconds: 86400 })
    expect(day.status).toBe(200)
    expect(day.json).toMatchObject({ offsetSeconds: 86400, advancedSeconds: 86400 })
    expect(clock.offsetMs).toBe(86_400_000)
    expect(Date.parse(day.json.now) - Date.parse(before.json.now)).toBeGreaterThanOrEqual(86_399_000)

    const iso = await call('POST', '/admin/clock', { advance: 'PT1H' })
    expect(iso.json.offsetSeconds).toBe(86400 + 3600)

    const back = await call('POST', '/admin/clock', { advanceSeconds: -60 })
    expect(back.status).toBe(400)
    expect(back.json).toEqual({
      error: 'invalid_request',
      error_description: expect.stringMatching(/negative \(-60\): the sandbox clock only moves forward/),
    })
    expect(clock.offsetMs).toBe((86400 + 3600) * 1000)
    expect((await call('POST', '/admin/clock', {})).status).toBe(400)
  })

  it('switches an organisation to Revoked and back through the admin endpoint', async () => {
    const kit = (await call('POST', '/tpps', {})).json
    const revoked = await call('POST', `/admin/organisation/${kit.orgId}/status`, { status: 'Revoked' })
    expect(revoked.status).toBe(200)
    expect(revoked.json).toEqual({ orgId: kit.orgId, orgStatus: 'Revoked', softwareStatements: 1 })
    await expect(directory.verifySoftwareStatement(kit.ssa)).rejects.toMatchObject({
      error: 'unapproved_software_statement',
    })
    expect((await call('POST', `/admin/organisation/${kit.orgId}/status`, { status: 'Active' })).status).toBe(200)
    expect((await directory.verifySoftwareStatement(kit.ssa)).org_id).toBe(kit.orgId)
    expect((await call('POST', `/admin/organisation/${kit.orgId}/status`, { status: 'Gone' })).status).toBe(400)
    expect((await call('POST', '/admin/organisation/0015800001NOSUCHOR/status', { status: 'Revoked' })).status).toBe(
      404,
    )
  })

  it('keeps serving after bad requests', async () => {
    for (let i = 0; i < 5; i++) await call('POST', '/tpps', '{bad')
    expect((await call('GET', '/jwks')).status).toBe(200)
    expect(logs.filter((l) => l.includes('failed'))).toEqual([])
  })
})
