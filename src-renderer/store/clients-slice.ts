/** The client marked current in each environment: the one the CLI and the forms use when none is named. */
import { runOp } from './ops.ts'
import type { SliceDeps } from './types.ts'

export interface ClientsSlice {
  /** Per environment id: the current client's id, or undefined when none is marked (or not read yet). */
  currentClients: Record<string, string | undefined>
  loadCurrentClient(environmentId: string): Promise<void>
  setCurrentClient(environmentId: string, clientId: string): Promise<boolean>
}

export function clientsSlice({ set, get, api }: SliceDeps): ClientsSlice {
  return {
    currentClients: {},
    async loadCurrentClient(environmentId) {
      const r = await runOp(set, `clients.current:${environmentId}`, () =>
        api.call('clients.current', { environmentId }),
      )
      if (r) set((s) => ({ currentClients: { ...s.currentClients, [environmentId]: r.clientId } }))
    },
    async setCurrentClient(environmentId, clientId) {
      await runOp(set, `clients.setCurrent:${clientId}`, () =>
        api.call('clients.setCurrent', { environmentId, clientId }),
      )
      if (get().ops[`clients.setCurrent:${clientId}`]?.error) return false
      set((s) => ({ currentClients: { ...s.currentClients, [environmentId]: clientId } }))
      return true
    },
  }
}
