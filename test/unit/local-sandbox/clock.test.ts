import { describe, expect, it } from 'vitest'
import { isoDateTime, SandboxClock } from '../../../src-main/local-sandbox/clock.ts'

describe('SandboxClock', () => {
  it('runs at wall time plus an offset that only moves forward, in its store first', async () => {
    let stored = 1000
    const store = {
      advanceClock: async (ms: number) => (stored += ms),
      clockOffset: async () => stored,
    }
    const clock = new SandboxClock(1000, store)
    const before = Date.now()
    expect(clock.nowMs()).toBeGreaterThanOrEqual(before + 1000)
    await clock.advance(86_400_000)
    expect(clock.offsetMs).toBe(86_401_000)
    expect(stored).toBe(86_401_000)
    // Another process on the same store moved it: refresh takes the larger offset, never a smaller one.
    stored += 5000
    expect(await clock.refresh()).toBe(86_406_000)
    stored = 0
    expect(await clock.refresh()).toBe(86_406_000)
    expect(clock.nowSeconds()).toBe(Math.floor(clock.nowMs() / 1000))
  })

  it('refuses to move backwards or by a non-number, naming the rule', () => {
    const clock = new SandboxClock()
    expect(() => clock.advance(-1)).toThrow(/only moves forward/)
    expect(() => clock.advance(Number.NaN)).toThrow(RangeError)
    expect(() => new SandboxClock(-5)).toThrow(/non-negative/)
  })

  it('formats date-times with the +00:00 offset', () => {
    expect(isoDateTime(new Date('2026-03-01T12:34:56.789Z'))).toBe('2026-03-01T12:34:56+00:00')
  })
})
