import { describe, expect, it } from 'vitest'
import { FaultRuleError } from '../../../../src-main/local-sandbox/faults/fault-rules.ts'
import { FaultSet } from '../../../../src-main/local-sandbox/faults/fault-set.ts'

describe('FaultSet', () => {
  it('applies a rule after skip, for times requests, and counts', () => {
    const set = new FaultSet([
      { id: 'a', origin: 'base', method: 'GET', path: '/x/*', skip: 1, times: 2, fault: { kind: 'reset' } },
    ])
    const pick = () => set.forRequest('base', 'get', '/x/1')?.id
    expect([pick(), pick(), pick(), pick()]).toEqual([undefined, 'a', 'a', undefined])
    expect(set.list()[0]).toMatchObject({ id: 'a', seen: 3, hits: 2, exhausted: true })
  })

  it('matches origin, method and path', () => {
    const set = new FaultSet([{ origin: 'auth', method: 'POST', path: '/token', fault: { kind: 'reset' } }])
    expect(set.forRequest('base', 'POST', '/token')).toBeUndefined()
    expect(set.forRequest('auth', 'GET', '/token')).toBeUndefined()
    expect(set.forRequest('auth', 'POST', '/token/x')).toBeUndefined()
    expect(set.forRequest('auth', 'POST', '/token')?.id).toBe('f1')
    expect(set.list()[0]).toMatchObject({ seen: 1, hits: 1, exhausted: false })
  })

  it('tries the next rule while one skips', () => {
    const set = new FaultSet([
      { id: 'late', skip: 1, fault: { kind: 'reset' } },
      { id: 'always', fault: { kind: 'latency', ms: 1 } },
    ])
    expect(set.forRequest('base', 'GET', '/a')?.id).toBe('always')
    expect(set.forRequest('base', 'GET', '/a')?.id).toBe('late')
  })

  it('keeps tls-handshake rules for connections', () => {
    const set = new FaultSet([{ origin: 'directory', times: 1, fault: { kind: 'tls-handshake' } }])
    expect(set.forRequest('directory', 'GET', '/jwks')).toBeUndefined()
    expect(set.forConnection('base')).toBeUndefined()
    expect(set.forConnection('directory')?.id).toBe('f1')
    expect(set.forConnection('directory')).toBeUndefined()
  })

  it('adds, removes, clears; a bad set keeps the old rules', () => {
    const set = new FaultSet()
    set.add({ id: 'f1', fault: { kind: 'reset' } })
    expect(set.add({ fault: { kind: 'reset' } }).id).toBe('f2')
    expect(() => set.add({ id: 'f1', fault: { kind: 'reset' } })).toThrow(FaultRuleError)
    expect(() => set.set({ rules: [{ fault: { kind: 'nope' } }] })).toThrow(/rules\[0\].fault.kind/)
    expect(set.list().map((r) => r.id)).toEqual(['f1', 'f2'])
    expect(set.remove('f1')).toBe(true)
    expect(set.remove('f1')).toBe(false)
    expect(set.clear()).toBe(1)
    expect(set.size).toBe(0)
  })
})
