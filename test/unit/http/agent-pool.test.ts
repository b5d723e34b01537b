import { describe, expect, it } from 'vitest'
import { createSelfSignedCertificate } from '../../../src-main/certificates/generate.ts'
import { AgentPool } from '../../../src-main/http/agent-pool.ts'
import type { HttpEnvironment } from '../../../src-main/http/environment.ts'

const env = (id: string, caPem = 'CA'): HttpEnvironment => ({
  id,
  kind: 'local-sandbox',
  origins: ['https://127.0.0.1:1'],
  trust: { mode: 'ca-bundle', caPem },
})

describe('AgentPool', () => {
  it('returns one client per (environment, identity) and rebuilds it when the configuration changes', async () => {
    const cert = await createSelfSignedCertificate({ subject: 'CN=x', keyType: 'EC-P256' })
    const identity = { id: 'i1', certPem: cert.certPem, keyPem: cert.keyPem }
    const pool = new AgentPool()
    const a = pool.client(env('e1'), identity)
    expect(pool.client(env('e1'), identity)).toBe(a)
    expect(pool.client(env('e1'))).not.toBe(a)
    expect(pool.client(env('e2'), identity)).not.toBe(a)
    const rebuilt = pool.client(env('e1', 'OTHER CA'), identity)
    expect(rebuilt).not.toBe(a)
    expect(pool.size).toBe(3)
    // The replaced client is closed.
    await expect(a.request({ method: 'GET', url: 'https://127.0.0.1:1/x' })).rejects.toMatchObject({ code: 'INTERNAL' })
    await pool.closeEnvironment('e1')
    expect(pool.size).toBe(1)
    await pool.closeAll()
    expect(pool.size).toBe(0)
  })
})
