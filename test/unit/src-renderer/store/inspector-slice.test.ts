import { describe, expect, it } from 'vitest'
import { matchesFilter } from '../../../../src-renderer/store/inspector-slice.ts'
import { connectEvents, createAppStore } from '../../../../src-renderer/store/store.ts'
import { fakeApi } from '../support/fake-api.ts'
import { summary } from '../support/fixtures.ts'

describe('matchesFilter', () => {
  it('filters by flow, path substring (any case) and status class, exact status or no response', () => {
    const s = summary('e1', { flowId: 'f1', status: 404, path: '/open-banking/v4.0/aisp/accounts/a1/Transactions' })
    expect(matchesFilter(s, {})).toBe(true)
    expect(matchesFilter(s, { flowId: 'f2' })).toBe(false)
    expect(matchesFilter(s, { pathContains: '/transactions' })).toBe(true)
    expect(matchesFilter(s, { status: '4xx' })).toBe(true)
    expect(matchesFilter(s, { status: '2xx' })).toBe(false)
    expect(matchesFilter(s, { status: 404 })).toBe(true)
    expect(matchesFilter(s, { status: 'error' })).toBe(false)
    expect(
      matchesFilter(summary('e2', { status: undefined, errorCode: 'TLS_HANDSHAKE_FAILED' }), { status: 'error' }),
    ).toBe(true)
  })
})

describe('inspector slice', () => {
  it('lists newest first, adds recorded exchanges live when they match the filter, and opens one from elsewhere', async () => {
    const api = fakeApi({
      'exchanges.list': (f: { pathContains?: string }) => ({
        total: 2,
        items: f.pathContains ? [] : [summary('e1'), summary('e2')],
      }),
      'exchanges.get': ({ id, reveal }: { id: string; reveal?: string[] }) => (reveal ? { id, reveal } : { id }),
      'secrets.reveal': ({ ref }: { exchangeId: string; ref: string }) => ({ value: 'v', item: { ref } }),
      'exchanges.export': ({ id, format }: { id: string; format: string }) => `${format} of ${id}`,
    })
    const store = createAppStore(api)
    connectEvents(store, api)
    await store.getState().loadExchanges()
    expect(store.getState().inspector.items.map((i) => i.id)).toEqual(['e2', 'e1'])
    api.emit('exchanges.onDidRecord', summary('e3'))
    expect(store.getState().inspector.items.map((i) => i.id)).toEqual(['e3', 'e2', 'e1'])
    expect(store.getState().inspector.total).toBe(3)

    await store.getState().setExchangeFilter({ pathContains: '/payments' })
    api.emit('exchanges.onDidRecord', summary('e4'))
    expect(store.getState().inspector.items).toEqual([])

    // Opened from a flow card while the filter hides it: shown all the same, the filter kept until cleared.
    await store.getState().openExchange('e1')
    expect(store.getState().view).toBe('inspector')
    expect(store.getState().inspector.filter).toEqual({ pathContains: '/payments' })
    expect(store.getState().inspector.detail).toEqual({ id: 'e1' })
    await store.getState().clearExchangeFilters()
    expect(store.getState().inspector.filter).toEqual({})
    expect(store.getState().inspector.items.map((i) => i.id)).toEqual(['e2', 'e1'])
    await store.getState().exportExchange('curl')
    // Reveal one item: the main side is asked for that one, then for one view showing it; the masked detail
    // and the export on screen stay as they were.
    await store.getState().revealSecret('ref-1')
    expect(api.callsOf('secrets.reveal')).toEqual([{ exchangeId: 'e1', ref: 'ref-1' }])
    expect(api.callsOf('exchanges.get').at(-1)).toEqual({ id: 'e1', reveal: ['ref-1'] })
    expect(store.getState().inspector.revealedView).toEqual({
      id: 'e1',
      refs: ['ref-1'],
      view: { id: 'e1', reveal: ['ref-1'] },
    })
    expect(store.getState().inspector.detail).toEqual({ id: 'e1' })
    expect(store.getState().inspector.exported).toEqual({ id: 'e1', format: 'curl', text: 'curl of e1' })
  })

  it('reads flows and exchanges again when the event stream comes back after a break', async () => {
    const api = fakeApi({
      'exchanges.list': () => ({ total: 0, items: [] }),
      'flows.list': () => ({ flows: [], more: 0 }),
    })
    const store = createAppStore(api)
    connectEvents(store, api)
    api.reconnect()
    expect(api.calls).toHaveLength(0) // not booted yet
    store.setState({ booted: true })
    api.reconnect()
    await new Promise((r) => setTimeout(r, 0))
    expect(api.calls.map((c) => c.name).sort()).toEqual(['exchanges.list', 'flows.list'])
  })

  it('exports the HAR and the Postman collection of what is shown: the current filters, without the paging', async () => {
    const asked: unknown[] = []
    const api = fakeApi({
      'exchanges.list': () => ({ total: 0, items: [] }),
      'exchanges.har': (f: unknown) => {
        asked.push(f)
        return '{"log":{}}'
      },
      'exchanges.postman': (f: unknown) => {
        asked.push(f)
        return '{"info":{}}'
      },
    })
    const store = createAppStore(api)
    await store.getState().setExchangeFilter({ flowId: 'f1', status: '2xx', pathContains: '/balances' })
    expect(await store.getState().exportShownHar()).toBe('{"log":{}}')
    // What is shown: the console's own exchanges left out, as in the list.
    expect(asked).toEqual([{ flowId: 'f1', status: '2xx', pathContains: '/balances', hideByConsole: true }])
    expect(await store.getState().exportShownPostman('journey')).toBe('{"info":{}}')
    expect(asked.at(-1)).toEqual({
      flowId: 'f1',
      status: '2xx',
      pathContains: '/balances',
      hideByConsole: true,
      name: 'journey',
    })
  })
})

describe("the inspector's console's own exchanges", () => {
  it('asks the list without them by default, counts those the event stream brings, shows them when asked', async () => {
    const api = fakeApi({
      'exchanges.list': (f: { hideByConsole?: boolean }) =>
        f.hideByConsole
          ? { total: 1, items: [summary('x1')], hiddenByConsole: 2 }
          : {
              total: 3,
              items: [summary('x1'), summary('x2', { byConsole: true }), summary('x3', { byConsole: true })],
            },
    })
    const store = createAppStore(api)
    await store.getState().loadExchanges()
    expect(api.callsOf('exchanges.list').at(-1)).toMatchObject({ hideByConsole: true })
    expect(store.getState().inspector).toMatchObject({ total: 1, hiddenByConsole: 2, showByConsole: false })

    // Live: an own exchange is counted (once, though its row comes again), a flow's is listed.
    const own = summary('x4', { byConsole: true })
    store.getState().recordExchange(own)
    store.getState().recordExchange({ ...own, violations: 0 })
    store.getState().recordExchange(summary('x5', { flowId: 'f1' }))
    expect(store.getState().inspector.items.map((i) => i.id)).toEqual(['x5', 'x1'])
    expect(store.getState().inspector).toMatchObject({ total: 2, hiddenByConsole: 3 })
    // A row listed before it was marked (a failed try) leaves the list when it comes again marked.
    store.getState().recordExchange(summary('x6'))
    store.getState().recordExchange(summary('x6', { byConsole: true }))
    expect(store.getState().inspector.items.map((i) => i.id)).toEqual(['x5', 'x1'])
    expect(store.getState().inspector).toMatchObject({ total: 2, hiddenByConsole: 4 })

    await store.getState().showConsoleExchanges(true)
    expect(api.callsOf('exchanges.list').at(-1)).not.toHaveProperty('hideByConsole')
    expect(store.getState().inspector).toMatchObject({ total: 3, hiddenByConsole: 0, showByConsole: true })
    store.getState().recordExchange(summary('x7', { byConsole: true }))
    expect(store.getState().inspector.items.map((i) => i.id)).toContain('x7')
    await store.getState().exportShownHar()
    expect(api.callsOf('exchanges.har').at(-1)).not.toHaveProperty('hideByConsole')
  })
})
