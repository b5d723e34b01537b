import { describe, expect, it } from 'vitest'
import { flowComplete, isStale, resultStep } from '../../../../src-renderer/store/flows-slice.ts'
import { connectEvents, createAppStore } from '../../../../src-renderer/store/store.ts'
import { fakeApi, fail, manualTimers, settle } from '../support/fake-api.ts'
import { flow, step } from '../support/fixtures.ts'

describe('isStale', () => {
  it('drops an event older than the stored step, and a late "running" for a step already finished', () => {
    const done = step('consent', 'done', { startedAt: '2026-11-22T10:00:02.000Z' })
    expect(isStale(done, step('consent', 'running', { startedAt: '2026-11-22T10:00:02.000Z' }))).toBe(true)
    expect(isStale(done, step('consent', 'running', { startedAt: '2026-11-22T10:00:01.000Z' }))).toBe(true)
    expect(isStale(done, step('consent', 'running', { startedAt: '2026-11-22T10:00:03.000Z' }))).toBe(false)
    expect(isStale(undefined, step('consent', 'running'))).toBe(false)
  })
})

describe('flows slice', () => {
  it('applies progress events live, refreshes a running flow to learn where the PSU goes, and clears it when the step ends', async () => {
    const timers = manualTimers()
    const awaiting = {
      stepId: 'capture',
      authorisationUrl: 'https://auth/authorize?x',
      redirectUri: 'http://127.0.0.1:1/callback',
      state: 's',
    }
    const api = fakeApi({
      'flows.get': () =>
        flow('f1', 'ais', [step('consent', 'done'), step('capture', 'running', { startedAt: 't1' })], { awaiting }),
    })
    const store = createAppStore(api, timers)
    connectEvents(store, api)
    store.setState({ flows: { f1: flow('f1', 'ais', [step('consent'), step('capture')]) }, flowOrder: ['f1'] })

    api.emit('flows.onDidProgress', {
      flowId: 'f1',
      step: step('consent', 'done', { startedAt: 't0', summary: 'consent aac-1 AWAU' }),
    })
    expect(store.getState().flows.f1!.steps[0]).toMatchObject({ status: 'done', summary: 'consent aac-1 AWAU' })
    expect(timers.size).toBe(0)

    api.emit('flows.onDidProgress', { flowId: 'f1', step: step('capture', 'running', { startedAt: 't1' }) })
    expect(timers.size).toBe(1)
    timers.flush()
    await settle()
    expect(api.callsOf('flows.get')).toEqual([{ flowId: 'f1' }])
    expect(store.getState().flows.f1!.awaiting).toEqual(awaiting)

    api.emit('flows.onDidProgress', { flowId: 'f1', step: step('capture', 'done', { startedAt: 't1' }) })
    expect(store.getState().flows.f1!.awaiting).toBeUndefined()
    // The late "running" of the same run does not undo it.
    api.emit('flows.onDidProgress', { flowId: 'f1', step: step('capture', 'running', { startedAt: 't1' }) })
    expect(store.getState().flows.f1!.steps[1]!.status).toBe('done')
  })

  it('reveals one secret of a flow through the main side into this window only; a refusal stays with the flow', async () => {
    const masked = {
      ref: 'r1',
      kind: 'token' as const,
      name: 'accessToken',
      where: 'step code-exchange',
      shown: 'abcdefgh…12345678',
      revealed: false,
      revealable: true,
    }
    const shown = step('code-exchange', 'done', { output: { accessToken: 'abcdefgh…12345678' }, secrets: [masked] })
    const api = fakeApi({
      'flows.get': () => flow('f1', 'ais', [shown]),
      'secrets.reveal': ({ ref }: { flowId: string; ref: string }) =>
        ref === 'r1'
          ? { value: 'abcdefgh-whole-12345678', item: { ...masked, revealed: true, shown: 'abcdefgh-whole-12345678' } }
          : fail('INVALID_INPUT', 'Private keys are never shown'),
    })
    const store = createAppStore(api, manualTimers())
    await store.getState().refreshFlow('f1')
    await store.getState().revealFlowSecret('f1', 'r1')
    expect(api.callsOf('secrets.reveal')).toEqual([{ flowId: 'f1', ref: 'r1' }])
    // The value is this window's: the flow's state stays as the main side masked it.
    expect(store.getState().revealed['flow:f1']).toEqual({
      r1: expect.objectContaining({ value: 'abcdefgh-whole-12345678' }),
    })
    expect(store.getState().flows.f1!.steps[0]!.output).toEqual({ accessToken: 'abcdefgh…12345678' })
    await store.getState().revealFlowSecret('f1', 'key')
    expect(store.getState().ops['secrets.reveal:f1']?.error?.code).toBe('INVALID_INPUT')
    expect(Object.keys(store.getState().revealed['flow:f1']!)).toEqual(['r1'])
  })

  it('fetches a flow it does not know when an event names it (started elsewhere)', async () => {
    const timers = manualTimers()
    const api = fakeApi({ 'flows.get': () => flow('f9', 'pis', [step('consent', 'running')]) })
    const store = createAppStore(api, timers)
    store.getState().applyProgress({ flowId: 'f9', step: step('consent', 'running') })
    timers.flush()
    await settle()
    expect(store.getState().flowOrder).toEqual(['f9'])
  })

  it('start keeps the input (capture mode) and selects the flow; runAll of a complete AIS flow loads its data and budget', async () => {
    const complete = flow('f2', 'ais', [step('consent', 'done'), step('accounts', 'done')])
    const api = fakeApi({
      'flows.start': () => flow('f2', 'ais', [step('consent'), step('accounts')]),
      'flows.runAll': () => complete,
      'ais.accountData': () => [{ accountId: 'a1' }],
      'ais.budget': () => [{ consentId: 'c', used: 1, remaining: 3, historyWithoutScaFrom: 'x' }],
    })
    const store = createAppStore(api)
    const input = {
      kind: 'ais' as const,
      environmentId: 'local-sandbox',
      clientId: 'c-1',
      permissions: ['ReadAccountsDetail'],
      psuPresent: false,
      capture: 'loopback' as const,
      authorisationUrlFrom: 'request-object' as const,
    }
    await store.getState().startFlow(input)
    expect(store.getState().activeFlowId).toBe('f2')
    expect(store.getState().flowInputs.f2).toEqual(input)
    const running = store.getState().runAll('f2')
    expect(store.getState().flowBusy.f2).toBe(true)
    await running
    expect(store.getState().flowBusy.f2).toBe(false)
    expect(flowComplete(store.getState().flows.f2)).toBe(true)
    expect(store.getState().accountData.f2).toEqual([{ accountId: 'a1' }])
    expect(store.getState().budgets.f2![0]!.remaining).toBe(3)
  })

  it("keeps a failed capture's error for the form that sent it", async () => {
    const api = fakeApi({
      'flows.capture': () => fail('INVALID_INPUT', 'The pasted URL belongs to another authorisation request.'),
    })
    const store = createAppStore(api)
    expect(await store.getState().captureRedirect('f1', 'x')).toBeUndefined()
    expect(store.getState().ops['flows.capture:f1']).toMatchObject({
      busy: false,
      error: { code: 'INVALID_INPUT', what: 'The pasted URL belongs to another authorisation request.' },
    })
  })
})

describe('resultStep', () => {
  it('is the first failed step, else the last step of the run that is done', () => {
    const steps = [step('token', 'done'), step('consent', 'done'), step('accounts', 'failed'), step('balances')]
    expect(resultStep(flow('f', 'ais', steps), new Set(['consent']))).toBe('accounts')
    const done = [step('token', 'done'), step('consent', 'done'), step('accounts', 'done')]
    expect(resultStep(flow('f', 'ais', done), new Set(['token', 'consent']))).toBe('consent')
    expect(resultStep(flow('f', 'ais', done), new Set())).toBeUndefined()
  })
  it('is none while the flow waits for the PSU (its panel takes the focus)', () => {
    const steps = [step('token', 'done'), step('authorise', 'running')]
    const waiting = flow('f', 'ais', steps, { awaiting: { stepId: 'authorise' } as never })
    expect(resultStep(waiting, new Set(['token', 'authorise']))).toBeUndefined()
  })
})

describe('following the result of a run', () => {
  it("a run by the user sets the target; the event stream's progress does not; changing views drops it", async () => {
    const before = flow('f1', 'ais', [step('token', 'done'), step('accounts'), step('balances')])
    const after = flow('f1', 'ais', [step('token', 'done'), step('accounts', 'done'), step('balances', 'done')])
    const api = fakeApi({ 'flows.runAll': () => after, 'flows.runStep': () => after })
    const store = createAppStore(api)
    store.setState({ flows: { f1: before }, flowOrder: ['f1'] })

    store.getState().applyProgress({ flowId: 'f1', step: step('accounts', 'done', { startedAt: 'x' }) })
    await settle()
    expect(store.getState().followTarget).toBeUndefined()

    await store.getState().runAll('f1')
    expect(store.getState().followTarget?.key).toBe('step:f1:balances')
    const seq = store.getState().followTarget!.seq
    await store.getState().runStep('f1', 'accounts')
    expect(store.getState().followTarget?.key).toBe('step:f1:accounts')
    // A part that followed an older target does not drop the newer one.
    store.getState().followedResult(seq)
    expect(store.getState().followTarget?.key).toBe('step:f1:accounts')
    store.getState().navigate('inspector')
    expect(store.getState().followTarget).toBeUndefined()
  })
})

describe('flows list pages', () => {
  it('shows the newest page, adds the older ones after it with "load more", and fetches the flows the inspector names', async () => {
    const at = (d: number) => `2026-11-2${d}T10:00:00.000Z`
    const api = fakeApi({
      'flows.list': (input) => {
        const q = input as { before?: string; ids?: string[] }
        if (q.ids) return { flows: [flow('f0', 'ais', [], { createdAt: at(0), restored: true })], more: 0 }
        return q.before
          ? { flows: [flow('f2', 'pis', [], { createdAt: at(2), restored: true })], more: 0 }
          : {
              flows: [flow('f4', 'ais', [], { createdAt: at(4) }), flow('f3', 'ais', [], { createdAt: at(3) })],
              more: 1,
              next: 'cursor-1',
            }
      },
    })
    const store = createAppStore(api)
    await store.getState().loadFlows()
    expect(store.getState()).toMatchObject({ flowOrder: ['f4', 'f3'], flowsMore: 1, flowsNext: 'cursor-1' })
    expect(await store.getState().loadMoreFlows()).toEqual(['f2'])
    expect(api.callsOf('flows.list').at(-1)).toEqual({ before: 'cursor-1' })
    expect(store.getState()).toMatchObject({ flowOrder: ['f4', 'f3', 'f2'], flowsMore: 0, flowsNext: undefined })
    expect(store.getState().flows.f2!.createdAt).toBe(at(2))
    expect(await store.getState().loadMoreFlows()).toEqual([])
    await store.getState().loadFlowsById(['f3', 'f0'])
    expect(api.callsOf('flows.list').at(-1)).toEqual({ ids: ['f0'], limit: 1 })
    expect(store.getState().flows.f0).toMatchObject({ restored: true })
    expect(store.getState().flowOrder).toEqual(['f4', 'f3', 'f2'])
  })
})
