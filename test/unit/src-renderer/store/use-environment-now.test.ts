// @vitest-environment happy-dom
import { act, cleanup, render, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import type { EnvironmentDto } from '../../../../src-main/contract/environments.ts'
import { createAppStore, StoreProvider } from '../../../../src-renderer/store/store.ts'
import { useEnvironmentNow } from '../../../../src-renderer/store/use-environment-now.ts'
import { fakeApi } from '../support/fake-api.ts'
import { flow, localEnv, step } from '../support/fixtures.ts'
import { h } from '../support/render.ts'

afterEach(cleanup)

const D = 86_400_000
const bankEnv: EnvironmentDto = { ...localEnv, id: 'bank', name: 'A bank', kind: 'bank-sandbox' }

/** Shows the environment's now, as an offset from wall time in whole minutes (the render and the check differ by ms). */
function Now({ environmentId }: { environmentId: string }) {
  const now = useEnvironmentNow(environmentId)
  return h('output', { 'aria-label': environmentId }, String(Math.round((now - Date.now()) / 60_000)))
}

function setUp(offsets: number[]) {
  let read = 0
  const api = fakeApi({
    'sandbox.clock': () => {
      const offsetSeconds = offsets[Math.min(read++, offsets.length - 1)]!
      return { now: new Date(Date.now() + offsetSeconds * 1000).toISOString(), offsetSeconds }
    },
    'sandbox.moveClock': () => ({ now: new Date(Date.now() + 8 * D).toISOString(), offsetSeconds: 8 * 86_400 }),
    'flows.runStep': () => flow('f1', 'ais', [step('consent', 'done')]),
    'ais.accountData': () => [],
    'ais.budget': () => [],
  })
  const store = createAppStore(api)
  store.setState({ environments: [localEnv, bankEnv] })
  return { api, store }
}

const minutes = (id: string) => Number(screen.getByLabelText(id).textContent)

describe('useEnvironmentNow', () => {
  it("counts from the sandbox's clock for the local sandbox and from wall time for a bank, reading the clock once", async () => {
    const { api, store } = setUp([7 * 86_400])
    render(
      h(StoreProvider, {
        store,
        children: [
          h(Now, { key: 'a', environmentId: 'local-sandbox' }),
          h('div', { key: 'b' }, h(Now, { environmentId: 'local-sandbox' })),
          h(Now, { key: 'c', environmentId: 'bank' }),
        ],
      }),
    )
    await waitFor(() => expect(screen.getAllByLabelText('local-sandbox')[0]!.textContent).toBe(String(7 * 1440)))
    expect(screen.getAllByLabelText('local-sandbox')[1]!.textContent).toBe(String(7 * 1440))
    expect(minutes('bank')).toBe(0)
    // Two users of the sandbox's clock, one read.
    expect(api.callsOf('sandbox.clock')).toHaveLength(1)
  })

  it('follows the clock when it is moved, and reads it again when a flow step on the local sandbox finishes', async () => {
    const { api, store } = setUp([0, 9 * 86_400])
    render(h(StoreProvider, { store, children: h(Now, { environmentId: 'local-sandbox' }) }))
    await waitFor(() => expect(api.callsOf('sandbox.clock')).toHaveLength(1))
    expect(minutes('local-sandbox')).toBe(0)

    await act(() => store.getState().moveSandboxClock({ days: 8 }))
    expect(minutes('local-sandbox')).toBe(8 * 1440)

    // Moved elsewhere (the admin endpoint): a finished step reads the clock again.
    store.setState({ flows: { f1: flow('f1', 'ais', [step('consent')]) }, flowOrder: ['f1'] })
    await act(() => store.getState().runStep('f1', 'consent'))
    await waitFor(() => expect(minutes('local-sandbox')).toBe(9 * 1440))
    expect(api.callsOf('sandbox.clock')).toHaveLength(2)

    // A bank's flow step reads no sandbox clock.
    await act(() => store.getState().followSandboxClock('bank'))
    expect(api.callsOf('sandbox.clock')).toHaveLength(2)
  })
})
