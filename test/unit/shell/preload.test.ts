import { beforeAll, describe, expect, it, vi } from 'vitest'
import { CALL_NAMES } from '../../../src-main/contract/api.ts'
import { IPC_CHANNELS } from '../../../src-main/contract/transport.ts'

const exposed: Record<string, unknown> = {}
const invoked: Array<{ channel: string; input: unknown }> = []
const listeners = new Map<string, Set<(...a: unknown[]) => void>>()

vi.mock('electron', () => {
  const e = {
    contextBridge: {
      exposeInMainWorld: (key: string, api: unknown) => {
        exposed[key] = api
      },
    },
    ipcRenderer: {
      invoke: async (channel: string, input: unknown) => {
        invoked.push({ channel, input })
        return { ok: true, value: channel }
      },
      on: (channel: string, fn: (...a: unknown[]) => void) => {
        if (!listeners.has(channel)) listeners.set(channel, new Set())
        listeners.get(channel)!.add(fn)
      },
      removeListener: (channel: string, fn: (...a: unknown[]) => void) => listeners.get(channel)?.delete(fn),
    },
  }
  return { ...e, default: e }
})

beforeAll(async () => {
  await import('../../../src-main/shell/preload.ts')
})

describe('preload', () => {
  it('exposes window.obConsole with exactly one function per contract call, plus onEvent, frozen', () => {
    const api = exposed.obConsole as Record<string, unknown>
    expect(Object.keys(api).sort()).toEqual([...CALL_NAMES, 'onEvent'].sort())
    for (const name of [...CALL_NAMES, 'onEvent']) expect(typeof api[name]).toBe('function')
    expect(Object.isFrozen(api)).toBe(true)
  })

  it('invokes each call on its own channel with the input', async () => {
    const api = exposed.obConsole as Record<string, (i?: unknown) => Promise<unknown>>
    expect(await api['flows.runAll']!({ flowId: 'f' })).toEqual({
      ok: true,
      value: `${IPC_CHANNELS.callPrefix}flows.runAll`,
    })
    await api['app.info']!()
    expect(invoked).toEqual([
      { channel: 'ob-console:call:flows.runAll', input: { flowId: 'f' } },
      { channel: 'ob-console:call:app.info', input: undefined },
    ])
  })

  it('onEvent passes contract events (not the IPC event) and unsubscribes', () => {
    const api = exposed.obConsole as { onEvent(l: (e: unknown) => void): () => void }
    const got: unknown[] = []
    const off = api.onEvent((e) => got.push(e))
    const [fn] = [...listeners.get(IPC_CHANNELS.event)!]
    fn!({ sender: 'ipc-event' }, { name: 'exchanges.onDidRecord', payload: { id: 'x' } })
    expect(got).toEqual([{ name: 'exchanges.onDidRecord', payload: { id: 'x' } }])
    off()
    expect(listeners.get(IPC_CHANNELS.event)!.size).toBe(0)
    expect(() => api.onEvent('not a function' as never)).toThrow(TypeError)
  })
})
