import { describe, expect, it } from 'vitest'
import { WriteBehind } from '../../../../src-main/services/persistence/write-behind.ts'
import { manualGate, turns } from '../../../support/manual-gate.ts'

describe('WriteBehind', () => {
  it('writes a round in each pause the gate gives, while there is more to write', async () => {
    const gate = manualGate()
    let pending = 0
    const rounds: number[] = []
    const behind = new WriteBehind(
      () => pending > 0,
      async () => {
        rounds.push(pending)
        pending = 0
      },
      gate,
    )
    pending = 2
    behind.start()
    behind.start() // one loop, however many starts
    await turns()
    expect([rounds, gate.waits, behind.busy]).toEqual([[], 1, true])
    gate.quiet()
    await turns()
    expect([rounds, behind.busy]).toEqual([[2], false])
  })

  it('flushed() writes at once, a round that begins while it waits included', async () => {
    const gate = manualGate()
    let pending = 1
    const rounds: string[] = []
    const behind = new WriteBehind(
      () => pending > 0,
      async () => {
        rounds.push(`round ${rounds.length + 1}`)
        pending--
        // A change made while this round writes: one more round to come.
        if (rounds.length === 1) pending++
        await turns(1)
      },
      gate,
    )
    behind.start()
    await turns()
    await behind.flushed()
    expect(rounds).toEqual(['round 1', 'round 2'])
    expect([gate.waits, gate.hurries, behind.busy]).toEqual([1, 1, false])
  })
})
