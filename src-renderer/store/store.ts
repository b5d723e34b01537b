/** The one store of the renderer, combined from feature slices; components read it through selectors. */
import { createContext, createElement, useContext, type ReactNode } from 'react'
import { useStore } from 'zustand'
import { createStore, type StoreApi } from 'zustand/vanilla'
import type { Api } from '../api/api.ts'
import { appSlice } from './app-slice.ts'
import { clientsSlice } from './clients-slice.ts'
import { consentsSlice } from './consents-slice.ts'
import { discoverySlice } from './discovery-slice.ts'
import { environmentsSlice } from './environments-slice.ts'
import { flowsSlice } from './flows-slice.ts'
import { inspectorSlice } from './inspector-slice.ts'
import { jwtSlice } from './jwt-slice.ts'
import { onboardingSlice } from './onboarding-slice.ts'
import { opsSlice } from './ops.ts'
import { registrationSlice } from './registration-slice.ts'
import { revealSlice } from './reveal-slice.ts'
import { sandboxSlice } from './sandbox-slice.ts'
import { sandboxFaultsSlice } from './sandbox-faults-slice.ts'
import { sequenceSlice } from './sequence-slice.ts'
import { tppToolsSlice } from './tpp-tools-slice.ts'
import type { AppState, SliceDeps } from './types.ts'

export type AppStore = StoreApi<AppState>

/** Creates the store over an api (the real one in main.tsx, a fake in tests). */
export function createAppStore(api: Api, timers?: SliceDeps['timers']): AppStore {
  return createStore<AppState>()((set, get) => {
    const deps: SliceDeps = { set, get, api, timers }
    return {
      ...opsSlice(set),
      ...appSlice(deps),
      ...environmentsSlice(deps),
      ...registrationSlice(deps),
      ...flowsSlice(deps),
      ...inspectorSlice(deps),
      ...jwtSlice(deps),
      ...onboardingSlice(deps),
      ...sequenceSlice(deps),
      ...sandboxSlice(deps),
      ...sandboxFaultsSlice(deps),
      ...consentsSlice(deps),
      ...tppToolsSlice(deps),
      ...clientsSlice(deps),
      ...discoverySlice(deps),
      ...revealSlice(deps),
    }
  })
}

/** Feeds contract events into the store; returns the unsubscribe function. */
export function connectEvents(store: AppStore, api: Api): () => void {
  const offs = [
    api.on('flows.onDidProgress', (p) => store.getState().applyProgress(p)),
    api.on('exchanges.onDidRecord', (s) => store.getState().recordExchange(s)),
    api.on('exchanges.onDidRecord', (s) => store.getState().recordFlowExchange(s)),
    api.on('flows.onDidReceiveDeeplink', ({ flowId }) => {
      if (flowId) void store.getState().refreshFlow(flowId)
    }),
    api.on('app.onDidFail', (error) => store.getState().notify('The console reported a failure', error)),
    // Events were missed while the stream was down: read the state again.
    api.onReconnect(() => {
      const s = store.getState()
      if (!s.booted) return
      void s.loadFlows()
      void s.loadExchanges()
    }),
  ]
  return () => offs.forEach((off) => off())
}

const StoreContext = createContext<AppStore | null>(null)

export function StoreProvider({ store, children }: { store: AppStore; children: ReactNode }) {
  return createElement(StoreContext.Provider, { value: store }, children)
}

/** Reads one slice of state; re-renders only when the selected value changes. */
export function useApp<T>(selector: (s: AppState) => T): T {
  const store = useContext(StoreContext)
  if (!store) throw new Error('useApp outside StoreProvider')
  return useStore(store, selector)
}

/** The store itself, for actions (stable functions). */
export function useAppStore(): AppStore {
  const store = useContext(StoreContext)
  if (!store) throw new Error('useAppStore outside StoreProvider')
  return store
}

export type { AppState } from './types.ts'
