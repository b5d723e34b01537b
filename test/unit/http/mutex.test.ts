import { describe, expect, it } from 'vitest'
import { Mutex } from '../../../src-main/http/mutex.ts'

describe('Mutex', () => {
  it('runs tasks one at a time in call order, and a failure does not block the next', async () => {
    const m = new Mutex()
    const order: string[] = []
    const task = (name: string, ms: number, fail = false) =>
      m.run(async () => {
        order.push(`start ${name}`)
        await new Promise((r) => setTimeout(r, ms))
        order.push(`end ${name}`)
        if (fail) throw new Error(name)
        return name
      })
    const results = await Promise.allSettled([task('a', 20), task('b', 1, true), task('c', 1)])
    expect(order).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c'])
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
  })
})
