import { afterAll, describe, expect, it } from 'vitest'
import { ConformanceLens } from '../../../src-main/conformance/conformance-lens.ts'
import { ConformanceTracker, MAX_IN_FLIGHT } from '../../../src-main/services/conformance-tracker.ts'
import { manualGate, turns } from '../../support/manual-gate.ts'
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

  it('starts a check in a quiet moment of the requests, not before', async () => {
    const gate = manualGate()
    const t = new ConformanceTracker(lens, 10, () => undefined, gate)
    let read = 0
    t.enqueue('q1', () => {
      read++
      return { note: 'checked' }
    })
    await turns()
    expect([read, gate.waits]).toEqual([0, 1])
    expect(t.get('q1')?.note).toMatch(/Being checked/)
    gate.quiet()
    await turns()
    expect(read).toBe(1)
    expect(t.get('q1')?.note).toBe('checked')
  })

  it('runs every queued check at once when a verdict is awaited, then waits for quiet again', async () => {
    const gate = manualGate()
    const t = new ConformanceTracker(lens, 20, () => undefined, gate)
    const ids = Array.from({ length: MAX_IN_FLIGHT + 3 }, (_, i) => `h${i}`)
    for (const id of ids) t.enqueue(id, () => ({ note: id }))
    await turns()
    // Only the checks running wait on the gate; the rest are queued behind them.
    expect(gate.waits).toBe(MAX_IN_FLIGHT)
    expect((await t.whenChecked(ids.at(-1)!))?.note).toBe(ids.at(-1))
    expect(gate.hurries).toBe(1)
    expect(gate.waits).toBe(MAX_IN_FLIGHT)
    expect(ids.map((id) => t.get(id)?.note)).toEqual(ids)
    // The queue emptied: a later check waits for quiet again, and settled() hurries it.
    t.enqueue('later', () => ({ note: 'later' }))
    await turns()
    expect(gate.waits).toBe(MAX_IN_FLIGHT + 1)
    expect(t.get('later')?.note).toMatch(/Being checked/)
    await t.settled()
    expect(gate.hurries).toBe(2)
    expect(t.get('later')?.note).toBe('later')
  })

  it('drops the checks waiting for a pause when closed: none reads its body', async () => {
    const gate = manualGate()
    const own = new ConformanceLens()
    const t = new ConformanceTracker(own, 10, () => undefined, gate)
    let read = 0
    t.enqueue('c1', () => {
      read++
      return { note: 'read' }
    })
    await turns()
    await t.close()
    await t.settled()
    await turns()
    expect(read).toBe(0)
    expect(t.get('c1')).toBeUndefined()
  })
})
