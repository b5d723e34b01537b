import { describe, expect, it } from 'vitest'
import { createAppStore } from '../../../../src-renderer/store/store.ts'
import { fail, fakeApi } from '../support/fake-api.ts'

describe('clients slice', () => {
  it('reads and sets the current client per environment; a refused choice leaves the current one', async () => {
    const api = fakeApi({
      'clients.current': ({ environmentId }: { environmentId: string }) =>
        environmentId === 'a' ? { clientId: 'c-1' } : {},
      'clients.setCurrent': ({ clientId }: { clientId: string }) =>
        clientId === 'other-env' ? fail('INVALID_INPUT') : undefined,
    })
    const store = createAppStore(api)
    await store.getState().loadCurrentClient('a')
    await store.getState().loadCurrentClient('b')
    expect(store.getState().currentClients).toEqual({ a: 'c-1', b: undefined })
    expect(await store.getState().setCurrentClient('a', 'c-2')).toBe(true)
    expect(await store.getState().setCurrentClient('a', 'other-env')).toBe(false)
    expect(store.getState().currentClients.a).toBe('c-2')
    expect(store.getState().ops['clients.setCurrent:other-env']?.error?.code).toBe('INVALID_INPUT')
  })
})
