import { describe, expect, it } from 'vitest'
import { timedPart } from '../../../bench/journey/journey.ts'
import { mainThreadCpuMs } from '../../../bench/lib/proc-cpu.ts'

/** Keeps the thread on the CPU for `ms` of wall time. */
function spin(ms: number): void {
  const until = performance.now() + ms
  let x = 0
  while (performance.now() < until) x += Math.sqrt(x + 1)
  expect(x).toBeGreaterThan(0)
}

const told = mainThreadCpuMs() !== undefined

describe("the main thread's CPU time", () => {
  it.skipIf(!told)('counts the time the thread computes, not the time it waits', async () => {
    const start = mainThreadCpuMs()!
    spin(60)
    const computed = mainThreadCpuMs()! - start
    await new Promise((resolve) => setTimeout(resolve, 120))
    const waited = mainThreadCpuMs()! - start - computed
    // On a loaded machine the thread may be off the CPU for part of the spin, never on it for the wait.
    expect(computed).toBeGreaterThan(20)
    expect(computed).toBeLessThan(100)
    expect(waited).toBeLessThan(20)
  })

  it.skipIf(told)('is undefined where the platform does not tell it', () => {
    expect(mainThreadCpuMs()).toBeUndefined()
  })
})

describe("a journey's timed part", () => {
  const mark = (wall: number, cpu: number | undefined) => ({ wall, cpu })

  it('adds the parts before and after the clock move, on both clocks', () => {
    expect(timedPart(mark(100, 10), mark(180, 50), mark(300, 55), mark(320, 62))).toEqual({
      ms: 100,
      timed: [
        [100, 180],
        [300, 320],
      ],
      timedCpuMs: 47,
    })
  })

  it('leaves the CPU figure out when a mark lacks it', () => {
    const part = timedPart(mark(0, 1), mark(10, undefined), mark(20, 3), mark(25, 4))
    expect(part.ms).toBe(15)
    expect(part).not.toHaveProperty('timedCpuMs')
  })
})
