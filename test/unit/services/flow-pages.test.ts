import { describe, expect, it } from 'vitest'
import type { FlowState } from '../../../src-main/contract/flows.ts'
import { flowPage } from '../../../src-main/services/flow-pages.ts'

const flow = (id: string, createdAt: string, restored?: boolean): FlowState => ({
  id,
  kind: 'pis',
  environmentId: 'e',
  createdAt,
  steps: [],
  ...(restored ? { restored } : {}),
})

describe('flowPage', () => {
  const kept = [flow('a', '2026-01-01T00:00:00.000Z', true), flow('b', '2026-01-02T00:00:00.000Z', true)]
  const live = [
    flow('b', '2026-01-02T00:00:00.000Z'),
    flow('d', '2026-01-03T00:00:00.000Z'),
    flow('c', '2026-01-03T00:00:00.000Z'),
  ]

  it('pages the live runs and the history together, newest first, a live run over its kept copy', () => {
    const p1 = flowPage(live, kept, { limit: 2 })
    expect(p1.flows.map((f) => f.id)).toEqual(['d', 'c'])
    expect(p1.more).toBe(2)
    const p2 = flowPage(live, kept, { limit: 2, before: p1.next! })
    expect(p2.flows.map((f) => [f.id, f.restored])).toEqual([
      ['b', undefined],
      ['a', true],
    ])
    expect(p2.more).toBe(0)
    expect(p2.next).toBeUndefined()
  })

  it('a cursor stays right when newer flows were made since', () => {
    const p1 = flowPage(live, kept, { limit: 1 })
    const newer = [...live, flow('e', '2026-02-01T00:00:00.000Z')]
    expect(flowPage(newer, kept, { limit: 10, before: p1.next! }).flows.map((f) => f.id)).toEqual(['c', 'b', 'a'])
  })

  it('lists named flows only, and refuses a bad limit or cursor with INVALID_INPUT', () => {
    expect(flowPage(live, kept, { ids: ['a', 'zz'] }).flows.map((f) => f.id)).toEqual(['a'])
    expect(() => flowPage(live, kept, { limit: 0 })).toThrow(/A page of 0 flows/)
    expect(() => flowPage(live, kept, { limit: 501 })).toThrow(/1 to 500/)
    expect(() => flowPage(live, kept, { before: 'nope' })).toThrow(/not a cursor/)
  })
})
