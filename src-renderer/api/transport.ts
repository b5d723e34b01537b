/** What carries the contract: Electron IPC or the loopback web host. The rest of the renderer never knows which. */
import type { ErrorDetails, ErrorProblem } from '../../src-main/contract/errors.ts'
import type { ContractEvent, TransportError } from '../../src-main/contract/transport.ts'

/**
 * An error as the renderer shows it: the contract's code, what, cause and fix, plus the details and
 * problems an engine error may carry (AppErrorDto). Transport-level failures use the same shape.
 */
export type UiError = TransportError & { details?: ErrorDetails; problems?: ErrorProblem[] }

/** The answer of one call as the renderer sees it. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; error: UiError }

export interface Transport {
  readonly kind: 'electron' | 'web'
  call(name: string, input: unknown): Promise<Outcome<unknown>>
  /** Subscribes to contract events; returns the unsubscribe function. */
  subscribe(listener: (event: ContractEvent) => void): () => void
  /** Called when the event stream is back after a break (events in between were missed). */
  onReconnect?(listener: () => void): () => void
}

/** Builds a UiError; the three sentences are required so no failure is shown without a fix. */
export function uiError(code: string, what: string, cause: string, fix: string, details?: ErrorDetails): UiError {
  return details ? { code, what, cause, fix, details } : { code, what, cause, fix }
}

/** True when `value` looks like a contract error (code, what, cause and fix are strings). */
export function isUiError(value: unknown): value is UiError {
  const v = value as Partial<UiError> | null
  return (
    !!v &&
    typeof v.code === 'string' &&
    typeof v.what === 'string' &&
    typeof v.cause === 'string' &&
    typeof v.fix === 'string'
  )
}

/**
 * Checks that an answer has the contract's result shape; anything else becomes an INTERNAL error that
 * says which call answered what, never a crash further down.
 */
export function toOutcome(name: string, answer: unknown): Outcome<unknown> {
  const a = answer as { ok?: unknown; value?: unknown; error?: unknown } | null
  if (a && a.ok === true) return { ok: true, value: a.value }
  if (a && a.ok === false && isUiError(a.error)) return { ok: false, error: a.error }
  return {
    ok: false,
    error: uiError(
      'INTERNAL',
      `The call ${name} answered something that is not a contract result.`,
      'The renderer and the main side are from different builds, or the main side failed before answering.',
      'Rebuild (npm run build) and restart the console; if it persists, report it with the call name.',
    ),
  }
}
