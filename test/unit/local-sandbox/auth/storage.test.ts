import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  alreadyConsumedMessage,
  SandboxOidcStorage,
} from '../../../../src-main/local-sandbox/auth/provider/oidc-adapter.ts'
import { EmbeddedOidcModels } from '../../../../src-main/local-sandbox/store/embedded-oidc-models.ts'
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

const onDisk = (path: string) => new SandboxOidcStorage(new EmbeddedOidcModels(path))

describe('SandboxOidcStorage on the embedded store', () => {
  it('persists the long-lived models and keeps the short-lived ones in memory', async () => {
    const storage = onDisk(dir)
    await storage.adapter('Client').upsert('c1', { client_id: 'c1' }, 0)
    await storage.adapter('AccessToken').upsert('at1', { clientId: 'c1', grantId: 'g1' }, 3600)
    await storage.adapter('AuthorizationCode').upsert('code1', { clientId: 'c1', grantId: 'g1' }, 600)
    const reopened = onDisk(dir)
    expect(await reopened.adapter('Client').find('c1')).toEqual({ client_id: 'c1' })
    expect(await reopened.adapter('AccessToken').find('at1')).toEqual({ clientId: 'c1', grantId: 'g1' })
    expect(await reopened.adapter('AuthorizationCode').find('code1')).toBeUndefined()
    expect(JSON.parse(readFileSync(join(dir, 'Client.json'), 'utf8')).c1.payload.client_id).toBe('c1')
  })

  it('journals each change before it returns, and leaves expired tokens out of the snapshot', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const storage = onDisk(dir)
    await storage.adapter('AccessToken').upsert('short', { clientId: 'c1' }, 60)
    await storage.adapter('AccessToken').upsert('long', { clientId: 'c1' }, 3600)
    expect(readFileSync(join(dir, 'AccessToken.journal.jsonl'), 'utf8').split('\n').filter(Boolean)).toHaveLength(2)
    vi.setSystemTime(Date.now() + 61_000)
    const reopened = onDisk(dir)
    expect(await reopened.adapter('AccessToken').find('long')).toEqual({ clientId: 'c1' })
    expect(Object.keys(JSON.parse(readFileSync(join(dir, 'AccessToken.json'), 'utf8')))).toEqual(['long'])
  })

  it("a code consumed by another request first: the second consume throws the provider's invalid_grant", async () => {
    const storage = new SandboxOidcStorage(new EmbeddedOidcModels(dir), {
      alreadyConsumed: (model) => new Error(alreadyConsumedMessage(model)),
    })
    const codes = storage.adapter('AuthorizationCode')
    await codes.upsert('code1', { clientId: 'c1', grantId: 'g1' }, 60)
    const outcomes = await Promise.allSettled([codes.consume('code1'), codes.consume('code1')])
    expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected'])
    expect((outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult).reason.message).toBe(
      'authorization code already consumed',
    )
    expect((await codes.find('code1'))?.consumed).toEqual(expect.any(Number))
  })

  it('replay detection: the look-up claims the JWT id, so of two look-ups at once only one finds it new', async () => {
    const replay = onDisk(dir).adapter('ReplayDetection')
    const found = await Promise.all([replay.find('jti-1'), replay.find('jti-1')])
    expect(found.filter((f) => f === undefined)).toHaveLength(1)
    await replay.upsert('jti-1', { jti: 'jti-1', iss: 'c1' }, 300)
    expect(await replay.find('jti-1')).toEqual({ jti: 'jti-1', iss: 'c1' })
  })

  it('finds sessions by uid and applies the onFind hook to reads (not to stored)', async () => {
    const storage = new SandboxOidcStorage(new EmbeddedOidcModels(dir), {
      onFind: { Client: (p) => ({ ...p, jwks: { keys: [{ kid: 'fresh' }] } }) },
    })
    await storage.adapter('Session').upsert('s1', { uid: 'u1', accountId: 'x' }, 100)
    expect(await storage.adapter('Session').findByUid('u1')).toEqual({ uid: 'u1', accountId: 'x' })
    await storage.adapter('Client').upsert('c1', { client_id: 'c1', jwks: { keys: [{ kid: 'stale' }] } }, 0)
    expect((await storage.adapter('Client').find('c1'))?.jwks).toEqual({ keys: [{ kid: 'fresh' }] })
    expect((await storage.stored('Client', 'c1'))?.payload.jwks).toEqual({ keys: [{ kid: 'stale' }] })
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
