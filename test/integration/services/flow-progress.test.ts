import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ConsoleRuntime } from '../../../src-main/cli/console-runtime.ts'
import type { FlowProgress } from '../../../src-main/contract/flows.ts'
import { freshRuntime, headlessAis, ok, registeredClient, startFlow } from './journey-support.ts'

/**
 * A flow's progress events as a window gets them (the flows service tells them on a later turn than the
 * step's own): in order, masked, every one before the run's answer, and a listener that throws stops neither
 * the flow nor the events.
 */
describe("a flow's progress events", () => {
  let rt: ConsoleRuntime
  const logged: string[] = []

  beforeAll(async () => {
    rt = await freshRuntime({ log: (line) => logged.push(line) })
  })
  afterAll(async () => {
    await rt?.stop()
  })

  it('reach a listener in order, masked, all before runAll answers, though another listener throws', async () => {
    const h = rt.handlers
    const { environmentId, clientId } = await registeredClient(h, 'strict-headless')
    const flow = await startFlow(h, headlessAis(environmentId, clientId))
    const told: FlowProgress[] = []
    const offCollect = rt.services.subscribe((e) => {
      if (e.name === 'flows.onDidProgress') told.push(e.payload as FlowProgress)
    })
    const offThrow = rt.services.subscribe((e) => {
      if (e.name === 'flows.onDidProgress') throw new Error('a listener that fails')
    })
    try {
      const state = ok(await h['flows.runAll']({ flowId: flow.id }))
      // Nothing of the run is told after its answer.
      const atAnswer = told.length
      await new Promise((r) => setImmediate(r))
      expect(told.length).toBe(atAnswer)

      // Each step: running first, its last event the state the flow answered.
      for (const step of state.steps) {
        const events = told.filter((p) => p.step.id === step.id)
        expect(events[0]!.step.status, step.id).toBe('running')
        expect(events.at(-1)!.step, step.id).toEqual(step)
      }
      // In the steps' order.
      const firstTold = state.steps.map((s) => told.findIndex((p) => p.step.id === s.id))
      expect(firstTold).toEqual([...firstTold].sort((a, b) => a - b))
      // Masked: the token the flow holds is not in any event.
      const token = (rt.services.flows.reveal(flow.id, secretRef(state, 'accessToken')) as { value: string }).value
      expect(token.length).toBeGreaterThan(20)
      expect(JSON.stringify(told)).not.toContain(token)
      // The failing listener was logged once per event; the flow and the other listener went on.
      expect(logged.filter((l) => l.includes('a listener that fails'))).toHaveLength(told.length)
    } finally {
      offCollect()
      offThrow()
    }
  })
})

/** The reveal handle of the first secret named `name` in a flow's steps. */
function secretRef(state: { steps: Array<{ secrets?: Array<{ ref: string; name: string }> }> }, name: string): string {
  const item = state.steps.flatMap((s) => s.secrets ?? []).find((i) => i.name === name)
  if (!item) throw new Error(`no secret named ${name} in the flow`)
  return item.ref
}
