/**
 * The renderer's only door to the main side: typed calls and events of the contract, over whichever
 * transport this window has (the preload's IPC bridge in the desktop app, the loopback web host otherwise).
 */
import type { CallInput, CallName, CallOutput, ContractEvents, EventName } from '../../src-main/contract/api.ts'
import { ipcTransport } from './ipc-transport.ts'
import { reloadOnNewToken, takeToken } from './token.ts'
import type { Outcome, Transport } from './transport.ts'
import { webTransport } from './web-transport.ts'

type InputArgs<N extends CallName> = [CallInput<N>] extends [void] ? [] : [input: CallInput<N>]

export interface Api {
  readonly host: 'electron' | 'web'
  /** Calls `domain.verb`; never throws: the outcome carries the value or the error with what, cause and fix. */
  call<N extends CallName>(name: N, ...input: InputArgs<N>): Promise<Outcome<CallOutput<N>>>
  /** Listens to one contract event; returns the unsubscribe function. */
  on<E extends EventName>(name: E, listener: (payload: ContractEvents[E]) => void): () => void
  /** Called when the event stream comes back after a break: state may have changed unseen. */
  onReconnect(listener: () => void): () => void
}

/** Types a transport with the contract. */
export function createApi(transport: Transport): Api {
  return {
    host: transport.kind,
    call(name, ...input) {
      // The main side answers each call with its contract output (the handler table is typed by the same contract).
      return transport.call(name, input[0]) as Promise<Outcome<CallOutput<typeof name>>>
    },
    on(name, listener) {
      return transport.subscribe((event) => {
        // The main side emits each event with its contract payload (services emit through the same types).
        if (event.name === name) listener(event.payload as ContractEvents[typeof name])
      })
    },
    onReconnect(listener) {
      return transport.onReconnect?.(listener) ?? (() => undefined)
    },
  }
}

/** The transport of this window: the preload's bridge when present, else the web host of this origin. */
export function detectApi(win: Window = window): Api {
  if (win.obConsole) return createApi(ipcTransport(win.obConsole))
  const token = takeToken()
  reloadOnNewToken()
  return createApi(webTransport({ token }))
}
