import { describe, expect, it } from 'vitest'
import type { SandboxClockDto } from '../../../src-main/contract/api.ts'
import { EnvironmentClocks } from '../../../src-main/services/environment-clock.ts'

describe('EnvironmentClocks', () => {
  const wall = Date.parse('2026-05-01T09:00:00Z')

  it('is wall time for a bank and wall time plus the offset learnt for the local sandbox', async () => {
    let offsetSeconds = 0
    let reads = 0
    const clocks = new EnvironmentClocks({
      wall: () => wall,
      localSandboxId: () => 'local-sandbox',
      running: () => true,
      readSandboxClock: async (): Promise<SandboxClockDto> => {
        reads++
        return { now: new Date(wall + offsetSeconds * 1000).toISOString(), offsetSeconds }
      },
    })
    expect(clocks.now('local-sandbox')).toBe(wall)
    offsetSeconds = 7 * 86_400
    await clocks.refresh('bank')
    expect(reads).toBe(0)
    expect(clocks.now('local-sandbox')).toBe(wall)
    await Promise.all([clocks.refresh('local-sandbox'), clocks.refresh()])
    expect(reads).toBe(1)
    expect(clocks.now('local-sandbox')).toBe(wall + 7 * 86_400_000)
    expect(clocks.now('bank')).toBe(wall)
    expect(clocks.now()).toBe(wall)
    clocks.learn({ now: '', offsetSeconds: 60 })
    expect(clocks.now('local-sandbox')).toBe(wall + 60_000)
  })

  it('keeps the last offset when the sandbox does not answer, and reads the stored one while it is stopped', async () => {
    let running = true
    const stored = 7 * 86_400_000
    const clocks = new EnvironmentClocks({
      wall: () => wall,
      localSandboxId: () => 'local-sandbox',
      running: () => running,
      readSandboxClock: async () => {
        throw new Error('connection refused')
      },
      storedOffsetMs: () => stored,
    })
    clocks.learn({ now: '', offsetSeconds: 3600 })
    await clocks.refresh('local-sandbox')
    expect(clocks.now('local-sandbox')).toBe(wall + 3_600_000)
    running = false
    await clocks.refresh('local-sandbox')
    expect(clocks.now('local-sandbox')).toBe(wall + 7 * 86_400_000)
    const broken = new EnvironmentClocks({
      wall: () => wall,
      localSandboxId: () => 'local-sandbox',
      running: () => false,
      readSandboxClock: async () => ({ now: '', offsetSeconds: 0 }),
      storedOffsetMs: () => {
        throw new Error('clock.json is not valid JSON')
      },
    })
    broken.learn({ now: '', offsetSeconds: 60 })
    await broken.refresh()
    expect(broken.now('local-sandbox')).toBe(wall + 60_000)
  })
})
