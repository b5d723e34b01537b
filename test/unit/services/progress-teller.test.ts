import { describe, expect, it } from 'vitest'
import type { FlowProgress, StepState } from '../../../src-main/contract/flows.ts'
import { ProgressTeller } from '../../../src-main/services/progress-teller.ts'

const ACCESS_TOKEN = `eyJhbGciOiJQUzI1NiJ9.${'a'.repeat(40)}.${'s'.repeat(43)}`

const progress = (id: string, status: StepState['status'], output?: unknown): FlowProgress => ({
  flowId: 'f1',
  step: { id, title: id, explanation: '', status, exchangeIds: [], checks: [], ...(output ? { output } : {}) },
})

const nextTurn = () => new Promise((resolve) => setImmediate(resolve))

describe("a flow's progress on its way out (ProgressTeller)", () => {
  it('tells nothing in the step’s own turn, then everything made, in order and masked, on a later one', async () => {
    const told: FlowProgress[] = []
    const teller = new ProgressTeller((p) => told.push(p))
    teller.made(progress('token', 'running'))
    teller.made(progress('token', 'done', { accessToken: ACCESS_TOKEN }))
    teller.made(progress('consent', 'running'))
    expect(told).toEqual([])
    await nextTurn()
    expect(told.map((p) => `${p.step.id} ${p.step.status}`)).toEqual(['token running', 'token done', 'consent running'])
    expect(JSON.stringify(told)).not.toContain(ACCESS_TOKEN)
    expect(told[1]!.step.secrets).toHaveLength(1)
    await nextTurn()
    expect(told).toHaveLength(3) // told once
  })

  it('tellNow hands over what waits at once (a run answers after its progress), and nothing twice', async () => {
    const told: string[] = []
    const teller = new ProgressTeller((p) => told.push(p.step.id))
    teller.made(progress('a', 'done'))
    teller.tellNow()
    expect(told).toEqual(['a'])
    await nextTurn()
    expect(told).toEqual(['a'])
  })

  it('logs a listener that throws and still tells the rest', async () => {
    const told: string[] = []
    const logged: string[] = []
    const teller = new ProgressTeller(
      (p) => {
        if (p.step.id === 'b') throw new Error('the window is gone')
        told.push(p.step.id)
      },
      { log: (line) => logged.push(line) },
    )
    for (const id of ['a', 'b', 'c']) teller.made(progress(id, 'done'))
    await nextTurn()
    expect(told).toEqual(['a', 'c'])
    expect(logged).toEqual([
      'OB Console: the progress of step b (flow f1) reached a listener that failed (the window is gone).',
    ])
  })

  it('hands the main side’s followers each progress as made, unmasked, before the masked one leaves', async () => {
    const order: string[] = []
    const followed: FlowProgress[] = []
    const teller = new ProgressTeller((p) => order.push(`told ${p.step.id}`), {
      follow: (p) => {
        followed.push(p)
        order.push(`followed ${p.step.id}`)
      },
    })
    const made = progress('token', 'done', { accessToken: ACCESS_TOKEN })
    teller.made(made)
    expect(followed).toEqual([])
    await nextTurn()
    expect(order).toEqual(['followed token', 'told token'])
    expect(followed[0]).toBe(made)
  })

  it('masks nothing while no one outside listens, and still tells the followers', async () => {
    let listening = false
    const told: FlowProgress[] = []
    const followed: string[] = []
    const teller = new ProgressTeller((p) => told.push(p), {
      follow: (p) => followed.push(p.step.id),
      listening: () => listening,
    })
    teller.made(progress('a', 'done', { accessToken: ACCESS_TOKEN }))
    teller.tellNow()
    expect(told).toEqual([])
    expect(followed).toEqual(['a'])
    listening = true
    teller.made(progress('b', 'done', { accessToken: ACCESS_TOKEN }))
    teller.tellNow()
    expect(told.map((p) => p.step.id)).toEqual(['b'])
    expect(JSON.stringify(told)).not.toContain(ACCESS_TOKEN)
    expect(followed).toEqual(['a', 'b'])
  })
})
