import { describe, expect, it } from 'vitest'
import { environmentNow, formatDuration, relativeTime } from '../../../../src-renderer/lib/clock.ts'

const NOW = Date.parse('2026-03-01T12:00:00Z')
const MIN = 60_000
const H = 60 * MIN
const D = 24 * H

describe('the one clock', () => {
  it("is wall time for a bank, and wall time plus the sandbox's offset for the local sandbox", () => {
    expect(environmentNow(NOW, 'bank-sandbox', 7 * 86_400)).toBe(NOW)
    expect(environmentNow(NOW, 'bank', undefined)).toBe(NOW)
    expect(environmentNow(NOW, undefined, 3600)).toBe(NOW)
    expect(environmentNow(NOW, 'local-sandbox', 7 * 86_400)).toBe(NOW + 7 * D)
    // The offset not read yet: counted as none.
    expect(environmentNow(NOW, 'local-sandbox', undefined)).toBe(NOW)
  })

  it('says a duration in days and hours, hours and minutes, or minutes', () => {
    expect(formatDuration(30_000)).toBe('under a minute')
    expect(formatDuration(3 * MIN)).toBe('3 min')
    expect(formatDuration(5 * H + 12 * MIN)).toBe('5 h 12 min')
    expect(formatDuration(2 * H)).toBe('2 h')
    expect(formatDuration(2 * D + 4 * H + 59 * MIN)).toBe('2 d 4 h')
    expect(formatDuration(6 * D)).toBe('6 d')
  })

  it('says a time ahead as "in …" and a time behind as "… ago", from the now it is given', () => {
    const at = new Date(NOW + 23 * H + 51 * MIN).toISOString()
    expect(relativeTime(at, NOW)).toEqual({ words: 'in 23 h 51 min', past: false })
    // The same expiry after the sandbox's clock moved 7 days: expired, never "in 23 h".
    expect(relativeTime(at, NOW + 7 * D)).toEqual({ words: '6 d ago', past: true })
    expect(relativeTime(NOW, NOW)).toEqual({ words: 'under a minute ago', past: true })
    expect(relativeTime(NOW + 90 * MIN, NOW)).toEqual({ words: 'in 1 h 30 min', past: false })
    expect(relativeTime('not a date', NOW)).toBeUndefined()
  })
})
