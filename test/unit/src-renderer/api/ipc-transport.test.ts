import { describe, expect, it } from 'vitest'
import { createApi } from '../../../../src-renderer/api/api.ts'
import type { ObConsoleBridge } from '../../../../src-renderer/api/bridge.ts'
import { ipcTransport } from '../../../../src-renderer/api/ipc-transport.ts'
import type { ContractEvent } from '../../../../src-main/contract/transport.ts'

describe('IPC transport (the preload bridge)', () => {
  it('calls the named function of the bridge and types the answer; events go through onEvent', async () => {
    let listener: ((e: ContractEvent) => void) | undefined
    const bridge = {
      'environments.list': async (input: unknown) => ({ ok: true, value: [{ id: 'e', input }] }),
      'jwt.decode': async () => {
        throw new Error('channel closed')
      },
      onEvent: (l: (e: ContractEvent) => void) => {
        listener = l
        return () => {
          listener = undefined
        }
      },
    } as unknown as ObConsoleBridge
    const api = createApi(ipcTransport(bridge))
    expect(api.host).toBe('electron')
    expect(await api.call('environments.list')).toEqual({ ok: true, value: [{ id: 'e', input: undefined }] })
    const thrown = await api.call('jwt.decode', { token: 'x' })
    expect(thrown).toMatchObject({ ok: false, error: { code: 'IPC_FAILED' } })
    expect(!thrown.ok && thrown.error.cause).toBe('channel closed')
    expect(await api.call('tpps.list')).toMatchObject({ ok: false, error: { code: 'IPC_UNKNOWN_CALL' } })
    const seen: unknown[] = []
    const off = api.on('exchanges.onDidRecord', (s) => seen.push(s))
    listener!({ name: 'flows.onDidProgress', payload: 1 })
    listener!({ name: 'exchanges.onDidRecord', payload: 2 })
    expect(seen).toEqual([2])
    off()
    expect(listener).toBeUndefined()
  })
})
