import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { QuietTime } from '../../../src-main/http/quiet-time.ts'

/** Whether the promise has settled after the timers due so far (and the turn after them) ran. */
function watch(p: Promise<void>): { done: boolean } {
  const state = { done: false }
  void p.then(() => (state.done = true))
  return state
}

/** Moves the fake clock by `ms`, runs what fell due, then the next turn (where a quiet wait ends). */
async function advance(ms: number): Promise<void> {
  await vi.advanceTimersByTimeAsync(ms)
  await vi.advanceTimersByTimeAsync(0)
}

describe('QuietTime', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'performance'] })
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('ends a wait on the next turn when no request has started or ended for the quiet time', async () => {
    const q = new QuietTime()
    const never = watch(q.wait())
    await advance(0)
    expect(never.done).toBe(true)
    q.activity()
    await advance(20)
    const after = watch(q.wait())
    await advance(0)
    expect(after.done).toBe(true)
  })

  it('holds a wait until 15 ms pass with no request starting or ending, counted from the last one', async () => {
    const q = new QuietTime()
    q.activity()
    const w = watch(q.wait())
    await advance(10)
    expect(w.done).toBe(false)
    q.activity() // a request ended: the quiet moment moves to 15 ms from here
    await advance(10)
    expect(w.done).toBe(false)
    await advance(5)
    expect(w.done).toBe(true)
  })

  it('ends a wait at most a second after it was asked for, however busy the requests are', async () => {
    const q = new QuietTime()
    q.activity()
    const w = watch(q.wait())
    for (let t = 0; t < 995; t += 5) {
      await advance(5)
      q.activity()
    }
    expect(w.done).toBe(false)
    await advance(5)
    expect(w.done).toBe(true)
  })

  it('counts the longest delay from when the work was asked for, not from the wait', async () => {
    const q = new QuietTime({ quietMs: 10, maxDelayMs: 100 })
    q.activity()
    const askedAt = q.now()
    await advance(8)
    q.activity()
    await advance(8)
    q.activity()
    const late = watch(q.wait(askedAt - 90)) // queued 106 ms ago: overdue
    const fresh = watch(q.wait())
    await advance(0)
    expect(late.done).toBe(true)
    expect(fresh.done).toBe(false)
    await advance(10)
    expect(fresh.done).toBe(true)
  })

  it('ends every wait at once when hurried, and later waits still wait', async () => {
    const q = new QuietTime()
    q.activity()
    const a = watch(q.wait())
    const b = watch(q.wait())
    q.hurry()
    await advance(0)
    expect([a.done, b.done]).toEqual([true, true])
    q.activity()
    const c = watch(q.wait())
    await advance(5)
    expect(c.done).toBe(false)
    await advance(10)
    expect(c.done).toBe(true)
  })
})
