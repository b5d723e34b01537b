import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Agent, request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startLocalSandbox, type RunningSandbox } from '../../../../src-main/local-sandbox/index.ts'

describe('public addresses', () => {
  let dataDir: string
  let sandbox: RunningSandbox
  let agent: Agent
  const logs: string[] = []
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'ob-public-'))
    sandbox = await startLocalSandbox({
      dataDir,
      port: 0,
      log: (l) => logs.push(l),
      publicHost: 'sandbox.example.internal',
      publicPort: 9443,
    })
    // The servers' certificate must cover the public host: TLS checks it against this name.
    agent = new Agent({ connect: { ca: sandbox.caBundlePem, servername: 'sandbox.example.internal' } })
  }, 60_000)
  afterAll(async () => {
    await agent?.close()
    await sandbox?.stop()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('every URL the sandbox writes names the public host and ports', async () => {
    expect(sandbox.baseUrl).toBe('https://sandbox.example.internal:9443')
    expect(sandbox.authUrl).toBe('https://sandbox.example.internal:9444')
    expect(sandbox.directoryUrl).toBe('https://sandbox.example.internal:9445')
  })

  it('discovery and a starter kit name the public origins, and the certificate covers the public host', async () => {
    const get = async (port: number, path: string, method = 'GET', body?: object) => {
      const res = await request(`https://127.0.0.1:${port}${path}`, {
        method,
        headers: { host: `127.0.0.1:${port}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body && JSON.stringify(body),
        dispatcher: agent,
      })
      return (await res.body.json()) as Record<string, unknown>
    }
    const discovery = await get(sandbox.listeningPorts.auth, '/.well-known/openid-configuration')
    const urls = Object.entries(discovery).filter(([, v]) => typeof v === 'string' && v.startsWith('https://'))
    expect(urls.length).toBeGreaterThan(4)
    for (const [key, url] of urls) expect(url, key).toMatch(/^https:\/\/sandbox\.example\.internal:944[34](\/|$)/)
    expect(discovery.issuer).toBe('https://sandbox.example.internal:9444')
    const kit = await get(sandbox.listeningPorts.directory, '/tpps', 'POST', { roles: ['AISP'] })
    expect(kit.jwksEndpoint).toMatch(/^https:\/\/sandbox\.example\.internal:9445\/organisation\//)
  })

  it('refuses a public host that is no name or address, and a public port out of range, before starting', async () => {
    await expect(startLocalSandbox({ dataDir, port: 0, publicHost: 'not a host' })).rejects.toThrow(
      /publicHost cannot be used: "not a host" is neither a DNS name/,
    )
    await expect(startLocalSandbox({ dataDir, port: 0, publicPort: 65534 })).rejects.toThrow(
      /publicPort must be a whole number from 1 to 65533/,
    )
  })
})
