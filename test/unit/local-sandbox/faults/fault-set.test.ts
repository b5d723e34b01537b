import { describe, expect, it } from 'vitest'
import { checkFaultRuleInputs, checkFaultRules, FaultSet } from '../../../../src-main/local-sandbox/faults/fault-set.ts'
import { MemoryFaultRules } from '../../../../src-main/local-sandbox/store/fault-rule-store.ts'

// The rules' behaviour on every backend: test/unit/local-sandbox/store/fault-rules-contract.ts.
describe('FaultSet', () => {
  it('checks a rule set, leaving left-out ids for the store to name', () => {
    const rules = checkFaultRules({ rules: [{ fault: { kind: 'reset' } }, { id: 'x', fault: { kind: 'reset' } }] })
    expect(rules.map((r) => r.id)).toEqual(['#1', 'x'])
    expect(checkFaultRuleInputs([{ fault: { kind: 'reset' } }])).toEqual([
      { origin: 'any', path: '/**', skip: 0, fault: { kind: 'reset' } },
    ])
    expect(() => checkFaultRules([{ id: '#1', fault: { kind: 'reset' } }])).toThrow(/rules\[0\]\.id/)
  })

  it('matches on its copy, in memory: with no rule, nothing goes to the store', async () => {
    const store = new MemoryFaultRules()
    let takes = 0
    const take = store.take.bind(store)
    store.take = (key) => {
      takes++
      return take(key)
    }
    const set = new FaultSet(store)
    await set.start()
    expect(set.size).toBe(0)
    await set.set([{ path: '/only', fault: { kind: 'reset' } }])
    expect(set.mayFaultRequest('base', 'GET', '/other')).toBe(false)
    expect(await set.forRequest('base', 'GET', '/other')).toBeUndefined()
    expect(takes).toBe(0)
    expect((await set.forRequest('base', 'GET', '/only'))?.id).toBe('f1')
    expect(takes).toBe(1)
    await set.stop()
  })
})
