/** Busy and error state of every operation the UI starts, by key, so each form shows its own spinner and error. */
import type { StoreApi } from 'zustand/vanilla'
import type { Outcome, UiError } from '../api/transport.ts'

export interface OpState {
  busy: boolean
  error?: UiError
}

export interface OpsSlice {
  ops: Record<string, OpState>
  /** Forgets an operation's error (the user dismissed it, or the form changed). */
  clearOp(key: string): void
}

type OpsSet = StoreApi<OpsSlice>['setState']

/**
 * Runs one contract call under an operation key: busy while it runs, the error kept when it fails.
 * Returns the value, or undefined on failure (the error is in `ops[key]`).
 */
export async function runOp<T>(set: OpsSet, key: string, run: () => Promise<Outcome<T>>): Promise<T | undefined> {
  set((s) => ({ ops: { ...s.ops, [key]: { busy: true } } }))
  let outcome: Outcome<T>
  try {
    outcome = await run()
  } catch (err) {
    outcome = {
      ok: false,
      error: {
        code: 'INTERNAL',
        what: `The console failed while running "${key}".`,
        cause: (err as Error)?.message ?? String(err),
        fix: 'Try again; if it fails again, report it with what you did.',
      },
    }
  }
  set((s) => ({ ops: { ...s.ops, [key]: outcome.ok ? { busy: false } : { busy: false, error: outcome.error } } }))
  return outcome.ok ? outcome.value : undefined
}

/** The ops part of the store. */
export function opsSlice(set: OpsSet): OpsSlice {
  return {
    ops: {},
    clearOp(key) {
      set((s) => {
        if (!s.ops[key]) return s
        const { [key]: _gone, ...rest } = s.ops
        return { ops: rest }
      })
    },
  }
}
