import { describe, expect, it } from 'vitest'
import { fixedClock, systemClock } from '../../../src-main/core/clock.ts'

describe('clock', () => {
  it('fixed clock reports and advances its time', () => {
    const clock = fixedClock('2026-01-01T00:00:00.500Z')
    expect(clock.now().toISOString()).toBe('2026-01-01T00:00:00.500Z')
    expect(clock.epochSeconds()).toBe(1767225600)
    clock.advance(1500)
    expect(clock.epochSeconds()).toBe(1767225602)
    clock.set(0)
    expect(clock.epochSeconds()).toBe(0)
  })

  it('system clock follows wall time with an optional offset', () => {
    const before = Date.now()
    const t = systemClock(60_000).now().getTime()
    expect(t - before).toBeGreaterThanOrEqual(60_000)
    expect(t - before).toBeLessThan(65_000)
    expect(Math.abs(systemClock().epochSeconds() - Math.floor(Date.now() / 1000))).toBeLessThanOrEqual(1)
  })
})
