/**
 * How the contract travels, whatever carries it (Electron IPC or the loopback web host). Pure types and
 * constants: the renderer imports this file.
 */

/** A contract call's answer: a result, never a throw (only a message would survive IPC). */
export type CallResult<T> = { ok: true; value: T } | { ok: false; error: TransportError }

/** An error as it crosses the contract: a stable code plus what failed, the likely cause and the fix. */
export interface TransportError {
  code: string
  what: string
  cause: string
  fix: string
}

/** One event pushed from the main side to the renderer. */
export interface ContractEvent<N extends string = string, P = unknown> {
  name: N
  payload: P
}

/** Web host: where calls and events go, relative to the host's origin. */
export const WEB_HOST_PATHS = {
  call: '/api/call/',
  events: '/api/events',
  /** Header carrying the per-launch token. */
  tokenHeader: 'x-ob-console-token',
  /** Fragment parameter the printed URL hands the token to the renderer in. */
  tokenFragment: 'token',
} as const

/** A call name: `domain.verb`, letters and digits (`o3.authCodeUrl`), checked before any lookup. */
export const CALL_NAME_PATTERN = /^[a-z][a-zA-Z0-9]*\.[a-z][a-zA-Z0-9]*$/

/** The contract's implementation as a host sees it: one async function per call name. */
export type HandlerTable = Record<string, (input: unknown) => Promise<CallResult<unknown>>>

/** Subscribes to contract events; returns the unsubscribe function. */
export type EventSubscribe = (listener: (event: ContractEvent) => void) => () => void

/** Electron IPC channel of a call, and the channel events travel on. */
export const IPC_CHANNELS = {
  callPrefix: 'ob-console:call:',
  event: 'ob-console:event',
} as const
