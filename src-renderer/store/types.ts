/** Shared store typing: every slice gets the whole store's set/get and the api. */
import type { StoreApi } from 'zustand/vanilla'
import type { Api } from '../api/api.ts'
import type { AppSlice } from './app-slice.ts'
import type { ClientsSlice } from './clients-slice.ts'
import type { ConsentsSlice } from './consents-slice.ts'
import type { DiscoverySlice } from './discovery-slice.ts'
import type { EnvironmentsSlice } from './environments-slice.ts'
import type { FlowsSlice } from './flows-slice.ts'
import type { InspectorSlice } from './inspector-slice.ts'
import type { JwtSlice } from './jwt-slice.ts'
import type { OnboardingSlice } from './onboarding-slice.ts'
import type { OpsSlice } from './ops.ts'
import type { RegistrationSlice } from './registration-slice.ts'
import type { RevealSlice } from './reveal-slice.ts'
import type { SandboxSlice } from './sandbox-slice.ts'
import type { SandboxFaultsSlice } from './sandbox-faults-slice.ts'
import type { SequenceSlice } from './sequence-slice.ts'
import type { TppToolsSlice } from './tpp-tools-slice.ts'

export type AppState = OpsSlice &
  AppSlice &
  EnvironmentsSlice &
  RegistrationSlice &
  FlowsSlice &
  InspectorSlice &
  JwtSlice &
  OnboardingSlice &
  SequenceSlice &
  SandboxSlice &
  SandboxFaultsSlice &
  ConsentsSlice &
  TppToolsSlice &
  ClientsSlice &
  DiscoverySlice &
  RevealSlice

export type SetState = StoreApi<AppState>['setState']
export type GetState = () => AppState

export interface SliceDeps {
  set: SetState
  get: GetState
  api: Api
  /** Timers, replaceable in tests. */
  timers?: { setTimeout(fn: () => void, ms: number): unknown; clearTimeout(id: unknown): void }
}
