import { afterAll, describe, expect, it } from 'vitest'
import { ConformanceLens } from '../../../src-main/conformance/conformance-lens.ts'
import { ConformanceTracker } from '../../../src-main/services/conformance-tracker.ts'
import { AIS, answer, transactionsPage } from '../conformance/answers.ts'

const lens = new ConformanceLens()
afterAll(() => lens.close())

describe('ConformanceTracker', () => {
  it('checks after the caller goes on: "being checked" first, then the verdict, and tells the listener', async () => {
    const told: Array<[string, number]> = []
    const t = new ConformanceTracker(lens, 10, (id, r) => told.push([id, r.violations.length]))
    let read = 0
    t.enqueue('x1', () => {
      read++
      return answer(`${AIS}/accounts/acc-1/transactions`, transactionsPage(101, 1, 1))
    })
    expect(read).toBe(0)
    expect(t.get('x1')).toMatchObject({ checked: false, note: expect.stringMatching(/Being checked/) })
    expect(t.get('unknown')).toBeUndefined()
    const verdict = await t.whenChecked('x1')
    expect(verdict?.violations.map((v) => v.rule)).toEqual(['bank.page-size'])
    expect(t.get('x1')).toEqual(verdict)
    expect(told).toEqual([['x1', 1]])
  })

  it("keeps a source's note as the verdict, forgets the oldest past its capacity, drops checks running when cleared", async () => {
    const told: string[] = []
    const t = new ConformanceTracker(lens, 2, (id) => told.push(id))
    for (const id of ['a', 'b', 'c']) t.enqueue(id, () => ({ note: `no body for ${id}` }))
    await t.settled()
    expect(t.get('a')).toBeUndefined()
    expect(t.get('c')).toEqual({ checked: false, violations: [], note: 'no body for c' })
    t.enqueue('d', () => ({ note: 'd' }))
    t.clear()
    // The queue runs in order: once a check enqueued after the clear is settled, 'd' has run and been dropped.
    t.enqueue('e', () => ({ note: 'e' }))
    await t.settled()
    expect(t.get('d')).toBeUndefined()
    expect(t.get('e')).toEqual({ checked: false, violations: [], note: 'e' })
    expect(told).toEqual(['a', 'b', 'c', 'e'])
  })
})
