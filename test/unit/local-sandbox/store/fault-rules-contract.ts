import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { FaultRuleError } from '../../../../src-main/local-sandbox/faults/fault-rules.ts'
import { FaultSet } from '../../../../src-main/local-sandbox/faults/fault-set.ts'
import type { SandboxStore } from '../../../../src-main/local-sandbox/store/sandbox-store.ts'
import type { StoreUnderTest } from './sandbox-store-contract.ts'

/**
 * The behaviour every backend's fault rules owe the sandbox (store/fault-rule-store.ts), through the
 * FaultSet each instance keeps; where the backend is shared (a database), a second FaultSet on a second
 * store open at once plays a second instance: rules set through one apply, counted once, on the other.
 */
export function faultRulesContract(backend: string, open: () => Promise<StoreUnderTest>): void {
  describe(`FaultRuleStore contract: ${backend}`, () => {
    let s: StoreUnderTest
    let other: SandboxStore
    let set: FaultSet
    let otherSet: FaultSet
    beforeAll(async () => {
      s = await open()
      other = s.shared ? await s.reopen() : s.store
      set = new FaultSet(s.store.faults)
      otherSet = new FaultSet(other.faults)
      await set.start()
      await otherSet.start()
    })
    afterAll(async () => {
      await set?.stop()
      await otherSet?.stop()
      if (other !== s.store) await other?.close()
      await s.store?.close()
    })
    beforeEach(async () => {
      await set.clear()
    })

    /** `fs`'s copy holds `n` active rules: a change made through the other instance is in it when the call returns. */
    const copyHolds = (fs: FaultSet, n: number) => expect(fs.size).toBe(n)

    it('applies a rule after skip, for times requests, and counts', async () => {
      await set.set([
        { id: 'a', origin: 'base', method: 'GET', path: '/x/*', skip: 1, times: 2, fault: { kind: 'reset' } },
      ])
      const pick = async () => (await set.forRequest('base', 'get', '/x/1'))?.id
      expect([await pick(), await pick(), await pick(), await pick()]).toEqual([undefined, 'a', 'a', undefined])
      expect((await set.list())[0]).toMatchObject({ id: 'a', seen: 3, hits: 2, exhausted: true })
      expect(set.size).toBe(0)
    })

    it('matches origin, method and path; names left-out ids f1, f2… never reusing one in use', async () => {
      await set.set([{ origin: 'auth', method: 'POST', path: '/token', fault: { kind: 'reset' } }])
      expect(set.mayFaultRequest('base', 'POST', '/token')).toBe(false)
      expect(await set.forRequest('base', 'POST', '/token')).toBeUndefined()
      expect(await set.forRequest('auth', 'GET', '/token')).toBeUndefined()
      expect(await set.forRequest('auth', 'POST', '/token/x')).toBeUndefined()
      const id = (await set.forRequest('auth', 'POST', '/token'))?.id
      expect(id).toMatch(/^f\d+$/)
      expect((await set.list())[0]).toMatchObject({ seen: 1, hits: 1, exhausted: false })
      const next = `f${Number(id!.slice(1)) + 1}`
      const rules = await set.set([{ fault: { kind: 'reset' } }, { id: next, fault: { kind: 'reset' } }])
      expect(rules.map((r) => r.id)).toEqual([`f${Number(id!.slice(1)) + 2}`, next])
    })

    it('tries the next rule while one skips', async () => {
      await set.set([
        { id: 'late', skip: 1, fault: { kind: 'reset' } },
        { id: 'always', fault: { kind: 'latency', ms: 1 } },
      ])
      expect((await set.forRequest('base', 'GET', '/a'))?.id).toBe('always')
      expect((await set.forRequest('base', 'GET', '/a'))?.id).toBe('late')
    })

    it('keeps tls-handshake rules for connections', async () => {
      await set.set([{ id: 'h', origin: 'directory', times: 1, fault: { kind: 'tls-handshake' } }])
      expect(await set.forRequest('directory', 'GET', '/jwks')).toBeUndefined()
      expect(set.mayFailHandshake('base')).toBe(false)
      expect(await set.forConnection('base')).toBeUndefined()
      expect(set.mayFailHandshake('directory')).toBe(true)
      expect((await set.forConnection('directory'))?.id).toBe('h')
      expect(await set.forConnection('directory')).toBeUndefined()
    })

    it('adds, removes, clears; a bad set keeps the old rules, naming the bad field', async () => {
      await set.add({ id: 'one', fault: { kind: 'reset' } })
      expect((await set.add({ fault: { kind: 'reset' } })).id).toMatch(/^f\d+$/)
      await expect(set.add({ id: 'one', fault: { kind: 'reset' } })).rejects.toThrow(FaultRuleError)
      await expect(set.add({ id: 'one', fault: { kind: 'reset' } })).rejects.toMatchObject({ field: 'rule.id' })
      await expect(set.set({ rules: [{ fault: { kind: 'nope' } }] })).rejects.toMatchObject({
        field: 'rules[0].fault.kind',
      })
      expect((await set.list()).length).toBe(2)
      expect(await set.remove('one')).toBe(true)
      expect(await set.remove('one')).toBe(false)
      expect(await set.clear()).toBe(1)
      expect(set.size).toBe(0)
    })

    it("a change through one instance is in the other one's copy when the call returns, every time", async () => {
      for (let i = 0; i < 20; i++) {
        await set.add({ id: `now${i}`, origin: 'base', times: 1, fault: { kind: 'tls-handshake' } })
        expect(otherSet.mayFailHandshake('base'), `rule ${i}`).toBe(true)
        expect(await set.remove(`now${i}`)).toBe(true)
        expect(otherSet.mayFailHandshake('base'), `rule ${i} removed`).toBe(false)
      }
      await otherSet.set([{ id: 'back', fault: { kind: 'reset' } }])
      copyHolds(set, 1)
    })

    it('a rule set through one instance applies on the other, and its counts are one', async () => {
      await set.add({ id: 'shared', path: '/s', times: 2, fault: { kind: 'reset' } })
      copyHolds(otherSet, 1)
      expect((await otherSet.forRequest('base', 'GET', '/s'))?.id).toBe('shared')
      expect((await set.forRequest('base', 'GET', '/s'))?.id).toBe('shared')
      expect(await otherSet.forRequest('base', 'GET', '/s')).toBeUndefined()
      expect((await otherSet.list())[0]).toMatchObject({ seen: 2, hits: 2, exhausted: true })
      await otherSet.clear()
      copyHolds(set, 0)
    })

    it('20 concurrent takes of a times: 3 rule (split across two stores when shared) fault exactly 3', async () => {
      await set.set([{ id: 'three', path: '/race', times: 3, fault: { kind: 'reset' } }])
      copyHolds(otherSet, 1)
      const taken = await Promise.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 ? otherSet : set).forRequest('base', 'POST', '/race')),
      )
      expect(taken.filter((r) => r?.id === 'three')).toHaveLength(3)
      expect((await set.list())[0]).toMatchObject({ seen: 3, hits: 3, exhausted: true })
    })

    it('concurrent takes with skip: the first `skip` across instances pass, then `times` fault', async () => {
      await set.set([{ id: 'later', path: '/skip', skip: 4, times: 5, fault: { kind: 'reset' } }])
      copyHolds(otherSet, 1)
      const taken = await Promise.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 ? otherSet : set).forRequest('auth', 'GET', '/skip')),
      )
      expect(taken.filter((r) => r?.id === 'later')).toHaveLength(5)
      expect((await set.list())[0]).toMatchObject({ seen: 9, hits: 5, exhausted: true })
    })
  })
}
