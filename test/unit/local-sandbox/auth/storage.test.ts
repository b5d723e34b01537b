import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { SandboxOidcStorage } from '../../../../src-main/local-sandbox/auth/provider/oidc-adapter.ts'
import {
  cookieHeaderFrom,
  stripSessionCookies,
} from '../../../../src-main/local-sandbox/auth/provider/provider-bridge.ts'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ob-auth-storage-'))
})
afterEach(() => {
  vi.useRealTimers()
  rmSync(dir, { recursive: true, force: true })
})

describe('SandboxOidcStorage', () => {
  it('persists the long-lived models and keeps the short-lived ones in memory', async () => {
    const storage = new SandboxOidcStorage(dir)
    await storage.adapter('Client').upsert('c1', { client_id: 'c1' }, 0)
    await storage.adapter('AccessToken').upsert('at1', { clientId: 'c1', grantId: 'g1' }, 3600)
    await storage.adapter('AuthorizationCode').upsert('code1', { clientId: 'c1', grantId: 'g1' }, 600)
    const reopened = new SandboxOidcStorage(dir)
    expect(await reopened.adapter('Client').find('c1')).toEqual({ client_id: 'c1' })
    expect(await reopened.adapter('AccessToken').find('at1')).toEqual({ clientId: 'c1', grantId: 'g1' })
    expect(await reopened.adapter('AuthorizationCode').find('code1')).toBeUndefined()
    expect(JSON.parse(readFileSync(join(dir, 'Client.json'), 'utf8')).c1.payload.client_id).toBe('c1')
  })

  it("expires entries, consumes, revokes by grant and deletes a client's artifacts", async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const storage = new SandboxOidcStorage(dir)
    const codes = storage.adapter('AuthorizationCode')
    await codes.upsert('code1', { clientId: 'c1', grantId: 'g1' }, 60)
    await codes.consume('code1')
    expect((await codes.find('code1'))?.consumed).toEqual(expect.any(Number))
    vi.setSystemTime(Date.now() + 61_000)
    expect(await codes.find('code1')).toBeUndefined()

    const ats = storage.adapter('AccessToken')
    await ats.upsert('a', { clientId: 'c1', grantId: 'g1' }, 3600)
    await ats.upsert('b', { clientId: 'c1', grantId: 'g2' }, 3600)
    await ats.upsert('c', { clientId: 'c2', grantId: 'g3' }, 3600)
    await ats.revokeByGrantId('g1')
    expect(await ats.find('a')).toBeUndefined()
    expect(await ats.find('b')).toBeDefined()
    storage.destroyClientArtifacts('c1')
    expect(await ats.find('b')).toBeUndefined()
    expect(await ats.find('c')).toBeDefined()
    await ats.destroy('c')
    expect(await ats.find('c')).toBeUndefined()
  })

  it('journals each change before it returns, and leaves expired tokens out of the snapshot', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const storage = new SandboxOidcStorage(dir)
    await storage.adapter('AccessToken').upsert('short', { clientId: 'c1' }, 60)
    await storage.adapter('AccessToken').upsert('long', { clientId: 'c1' }, 3600)
    expect(readFileSync(join(dir, 'AccessToken.journal.jsonl'), 'utf8').split('\n').filter(Boolean)).toHaveLength(2)
    vi.setSystemTime(Date.now() + 61_000)
    const reopened = new SandboxOidcStorage(dir)
    expect(await reopened.adapter('AccessToken').find('long')).toEqual({ clientId: 'c1' })
    expect(Object.keys(JSON.parse(readFileSync(join(dir, 'AccessToken.json'), 'utf8')))).toEqual(['long'])
  })

  it('finds sessions by uid and applies the onFind hook to reads (not to raw)', async () => {
    const storage = new SandboxOidcStorage(dir, { Client: (p) => ({ ...p, jwks: { keys: [{ kid: 'fresh' }] } }) })
    await storage.adapter('Session').upsert('s1', { uid: 'u1', accountId: 'x' }, 100)
    expect(await storage.adapter('Session').findByUid('u1')).toEqual({ uid: 'u1', accountId: 'x' })
    await storage.adapter('Client').upsert('c1', { client_id: 'c1', jwks: { keys: [{ kid: 'stale' }] } }, 0)
    expect((await storage.adapter('Client').find('c1'))?.jwks).toEqual({ keys: [{ kid: 'fresh' }] })
    expect(storage.raw('Client', 'c1')?.jwks).toEqual({ keys: [{ kid: 'stale' }] })
  })
})

describe('provider bridge helpers', () => {
  it('strips oidc-provider session cookies and keeps the others', () => {
    const headers: Record<string, string | undefined> = {
      cookie: '_session=abc; _session.sig=x; _interaction_resume=u1; _session.legacy=z; other=1',
    }
    stripSessionCookies(headers)
    expect(headers.cookie).toBe('_interaction_resume=u1; other=1')
    const only: Record<string, string | undefined> = { cookie: '_session=abc' }
    stripSessionCookies(only)
    expect(only.cookie).toBeUndefined()
  })

  it('turns Set-Cookie headers into a Cookie header, dropping cleared cookies', () => {
    expect(
      cookieHeaderFrom([
        '_interaction=u1; path=/interaction/u1; secure',
        '_interaction.sig=s; path=/',
        'gone=; expires=Thu, 01 Jan 1970 00:00:00 GMT',
      ]),
    ).toBe('_interaction=u1; _interaction.sig=s')
    expect(cookieHeaderFrom(undefined)).toBe('')
  })
})
