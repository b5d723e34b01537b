import { randomUUID } from 'node:crypto'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { OidcModelStore } from '../../../../src-main/local-sandbox/store/oidc-models.ts'
import type { SandboxStore } from '../../../../src-main/local-sandbox/store/sandbox-store.ts'
import type { StoreUnderTest } from './sandbox-store-contract.ts'

const id = (prefix: string) => `${prefix}-${randomUUID()}`

/**
 * The behaviour every backend's oidc-provider models owe the sandbox (store/oidc-models.ts), the
 * atomic ones under concurrent calls (all started before any is awaited); where the backend is shared
 * (a database), the same calls split across two stores open at once, as two instances would make them.
 */
export function oidcModelsContract(backend: string, open: () => Promise<StoreUnderTest>): void {
  describe(`OidcModelStore contract: ${backend}`, () => {
    let s: StoreUnderTest
    let models: OidcModelStore
    /** A second store on the same state: live when shared, else the same store. */
    let other: SandboxStore
    beforeAll(async () => {
      s = await open()
      models = s.store.oidc
      other = s.shared ? await s.reopen() : s.store
    })
    afterAll(async () => {
      if (other !== s.store) await other?.close()
      await s.store?.close()
    })
    afterEach(() => {
      vi.useRealTimers()
    })

    it('stores, finds (by id and uid), replaces with a new version, and tells whether versions still hold', async () => {
      const sid = id('s')
      await models.upsert('Session', sid, { uid: `u-${sid}`, accountId: 'x' }, 600)
      const first = await models.find('Session', sid)
      expect(first?.payload).toEqual({ uid: `u-${sid}`, accountId: 'x' })
      expect(await other.oidc.findBy('Session', 'uid', `u-${sid}`)).toEqual(first?.payload)
      expect(await models.findBy('Session', 'uid', 'nobody')).toBeUndefined()
      expect(await models.unchanged([{ model: 'Session', id: sid, version: first!.version }])).toBe(true)
      await other.oidc.upsert('Session', sid, { uid: `u-${sid}`, accountId: 'y' }, 600)
      const second = await models.find('Session', sid)
      expect(second?.payload.accountId).toBe('y')
      expect(await models.unchanged([{ model: 'Session', id: sid, version: first!.version }])).toBe(false)
      expect(await models.unchanged([{ model: 'Session', id: sid, version: second!.version }])).toBe(true)
      await models.destroy('Session', sid)
      expect(await models.unchanged([{ model: 'Session', id: sid, version: second!.version }])).toBe(false)
      expect(await models.find('Session', sid)).toBeUndefined()
      expect(await models.unchanged([])).toBe(true)
    })

    it('a code is consumed once: of 20 concurrent redemptions (split across stores when shared) one wins', async () => {
      const code = id('code')
      await models.upsert('AuthorizationCode', code, { clientId: 'c1', grantId: 'g1' }, 600)
      const before = await models.find('AuthorizationCode', code)
      const wins = await Promise.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 ? other.oidc : models).consume('AuthorizationCode', code)),
      )
      expect(wins.filter(Boolean)).toHaveLength(1)
      const after = await models.find('AuthorizationCode', code)
      expect(after?.payload.consumed).toEqual(expect.any(Number))
      expect(await models.unchanged([{ model: 'AuthorizationCode', id: code, version: before!.version }])).toBe(false)
      expect(await models.consume('AuthorizationCode', id('missing'))).toBe(false)
    })

    it('a JWT id is claimed once until it expires: of 20 concurrent claims one wins', async () => {
      vi.useFakeTimers({ toFake: ['Date'] })
      const jti = id('jti')
      const claims = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          (i % 2 ? other.oidc : models).insertOnce('ReplayDetection', jti, { jti, n: i }, 60),
        ),
      )
      expect(claims.filter(Boolean)).toHaveLength(1)
      expect(await models.insertOnce('ReplayDetection', jti, { jti }, 60)).toBe(false)
      vi.setSystemTime(Date.now() + 61_000)
      expect(await models.find('ReplayDetection', jti)).toBeUndefined()
      expect(await models.insertOnce('ReplayDetection', jti, { jti, again: true }, 60)).toBe(true)
      expect((await models.find('ReplayDetection', jti))?.payload).toEqual({ jti, again: true })
    })

    it('expires entries in wall time and deletes the expired ones when asked; entries without expiry stay', async () => {
      vi.useFakeTimers({ toFake: ['Date'] })
      const [short, long, client] = [id('short'), id('long'), id('client')]
      await models.upsert('AccessToken', short, { clientId: 'c1' }, 60)
      await models.upsert('AccessToken', long, { clientId: 'c1' }, 3600)
      await models.upsert('Client', client, { client_id: client })
      vi.setSystemTime(Date.now() + 61_000)
      expect(await models.deleteExpired()).toBeGreaterThanOrEqual(1)
      expect(await models.consume('AccessToken', short)).toBe(false)
      expect(await models.find('AccessToken', short)).toBeUndefined()
      expect(await models.find('AccessToken', long)).toBeDefined()
      expect(await models.find('Client', client)).toBeDefined()
    })

    it("revokes by grant within one model, and removes a client's tokens, codes and grants but not the client", async () => {
      const [c1, c2] = [id('c'), id('c')]
      const [g1, g2] = [id('g'), id('g')]
      await models.upsert('Client', c1, { client_id: c1 })
      await models.upsert('Grant', g1, { clientId: c1 }, 3600)
      await models.upsert('AccessToken', 'a', { clientId: c1, grantId: g1 }, 3600)
      await models.upsert('AccessToken', 'b', { clientId: c1, grantId: g2 }, 3600)
      await models.upsert('RefreshToken', 'r', { clientId: c1, grantId: g1 }, 3600)
      await models.upsert('AccessToken', 'c', { clientId: c2, grantId: id('g') }, 3600)
      await other.oidc.revokeByGrantId('AccessToken', g1)
      expect(await models.find('AccessToken', 'a')).toBeUndefined()
      expect(await models.find('RefreshToken', 'r')).toBeDefined()
      expect(await models.find('AccessToken', 'b')).toBeDefined()
      await other.oidc.destroyClientArtifacts(c1)
      for (const [model, key] of [
        ['AccessToken', 'b'],
        ['RefreshToken', 'r'],
        ['Grant', g1],
      ])
        expect(await models.find(model!, key!)).toBeUndefined()
      expect(await models.find('AccessToken', 'c')).toBeDefined()
      expect(await models.find('Client', c1)).toBeDefined()
    })
  })
}
