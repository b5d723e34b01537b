import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Agent, request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startLocalSandbox } from '../../../../src-main/local-sandbox/index.ts'
import { startTestSandbox, type TestSandbox } from '../support/sandbox-fixture.ts'

const TOKEN = randomBytes(24).toString('base64url')

describe('the admin token', () => {
  let env: TestSandbox
  let agent: Agent
  beforeAll(async () => {
    env = await startTestSandbox({ adminToken: TOKEN })
    agent = new Agent({ connect: { ca: env.sandbox.caBundlePem } })
  }, 60_000)
  afterAll(async () => {
    await agent?.close()
    await env?.stop()
  })

  const call = async (method: string, path: string, authorization?: string, body?: object) => {
    const res = await request(`${env.sandbox.directoryUrl}${path}`, {
      method,
      headers: {
        ...(authorization ? { authorization } : {}),
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body && JSON.stringify(body),
      dispatcher: agent,
    })
    const text = await res.body.text()
    return { status: res.statusCode, headers: res.headers, text, json: text ? JSON.parse(text) : undefined }
  }

  it('guards /admin/* and POST /tpps: none, a wrong token and the right one', async () => {
    for (const [method, path, body] of [
      ['GET', '/admin/clock', undefined],
      ['GET', '/admin/faults', undefined],
      ['GET', '/admin/conformance', undefined],
      ['POST', '/tpps', { roles: ['AISP'] }],
    ] as const) {
      const none = await call(method, path, undefined, body)
      expect(none.status, `${method} ${path}`).toBe(401)
      expect(none.headers['www-authenticate']).toBe('Bearer realm="local sandbox admin"')
      expect(none.json.error_description).toContain(`${method} ${path} needs the sandbox's admin token`)
      const wrong = await call(method, path, `Bearer ${TOKEN.slice(1)}x`, body)
      expect(wrong.status).toBe(401)
      expect(wrong.json.error_description).toContain("is not this sandbox's admin token")
      expect(wrong.text).not.toContain(TOKEN.slice(1))
      const right = await call(method, path, `Bearer ${TOKEN}`, body)
      expect(right.status, right.text).toBeLessThan(300)
    }
  })

  it('leaves the public endpoints open: the directory JWKS, a TPP record, health', async () => {
    const kit = (await call('POST', '/tpps', `Bearer ${TOKEN}`, { roles: ['AISP'] })).json
    expect((await call('GET', '/jwks')).status).toBe(200)
    expect((await call('GET', `/tpps/${kit.softwareId}`)).status).toBe(200)
    expect((await call('GET', `/organisation/${kit.orgId}/software/${kit.softwareId}/jwks`)).status).toBe(200)
    expect((await call('GET', '/livez')).status).toBe(200)
  })
})

describe('an admin token required and none given', () => {
  it('is made once and kept as its hash: the start that made it shows it, a restart on the same state takes it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ob-admin-generated-'))
    try {
      const first = await startLocalSandbox({ dataDir, port: 0, log: () => {}, requireAdminToken: true })
      const token = first.generatedAdminToken!
      expect(first.adminTokenRequired).toBe(true)
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/)
      await first.stop()
      expect(readFileSync(join(dataDir, 'auth', 'admin-token.json'), 'utf8')).not.toContain(token)
      const second = await startLocalSandbox({ dataDir, port: 0, log: () => {}, requireAdminToken: true })
      const agent = new Agent({ connect: { ca: second.caBundlePem } })
      try {
        expect(second.generatedAdminToken).toBeUndefined()
        const faults = (authorization?: string) =>
          request(`${second.directoryUrl}/admin/faults`, {
            headers: authorization ? { authorization } : {},
            dispatcher: agent,
          }).then(async (r) => (await r.body.text(), r.statusCode))
        expect(await faults()).toBe(401)
        expect(await faults(`Bearer ${token}`)).toBe(200)
      } finally {
        await agent.close()
        await second.stop()
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  })
})
