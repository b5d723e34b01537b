/**
 * The shape of `window.obConsole`, the object the Electron preload exposes: one function per contract
 * call (named exactly like the call, `domain.verb`), plus `onEvent`. Derived from the contract so a new
 * call shows up here without edits.
 */
import type { CallInput, CallName, CallOutput } from '../../src-main/contract/api.ts'
import type { CallResult, ContractEvent } from '../../src-main/contract/transport.ts'

export type ObConsoleBridge = {
  readonly [N in CallName]: (input: CallInput<N>) => Promise<CallResult<CallOutput<N>>>
} & {
  /** Subscribes to contract events; returns the unsubscribe function. */
  readonly onEvent: (listener: (event: ContractEvent) => void) => () => void
}

declare global {
  interface Window {
    /** Present in the desktop app only (the preload); absent in the web host. */
    obConsole?: ObConsoleBridge
  }
}
