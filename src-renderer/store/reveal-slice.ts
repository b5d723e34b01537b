/**
 * The secrets this window revealed. The main side answers a Reveal to the window that asked and keeps nothing
 * of it (every other window, every event, every export stays masked), so a revealed value lives here alone:
 * for one exchange or one flow, until the user masks it again, leaves that view, or `REVEAL_MS` pass.
 */
import type { SecretItemDto } from '../../src-main/contract/exchange.ts'
import { runOp } from './ops.ts'
import type { SliceDeps } from './types.ts'

/** How long a revealed value stays on screen at most. */
export const REVEAL_MS = 5 * 60_000

/** Where a secret was revealed: one exchange, or one flow's state. */
export type RevealScope = { exchangeId: string } | { flowId: string }

/** The key of a scope in `revealed`: `exchange:<id>` or `flow:<id>`. */
export function scopeKey(scope: RevealScope): string {
  return 'exchangeId' in scope ? `exchange:${scope.exchangeId}` : `flow:${scope.flowId}`
}

export interface RevealedValue {
  value: string
  /** When it is masked again by itself (ms since the epoch). */
  until: number
}

export interface RevealSlice {
  /** Per scope key (`scopeKey`), per secret ref: the values revealed in this window. */
  revealed: Record<string, Record<string, RevealedValue>>
  /** Asks the main side for one secret's value and keeps it here until masked again; the value, or undefined. */
  reveal(scope: RevealScope, ref: string): Promise<string | undefined>
  /** Masks one revealed secret of a scope again, or every one of it without `ref`. */
  maskAgain(scope: RevealScope, ref?: string): void
  /**
   * Called after a scope's revealed values changed: the inspector drops at once a view showing more than is
   * revealed, then reads the view again (resolves when it has).
   */
  revealChanged(scope: RevealScope): Promise<void>
}

/** The revealed refs of a scope, sorted (what `exchanges.get` is asked to show). */
export function revealedRefs(revealed: RevealSlice['revealed'], scope: RevealScope): string[] {
  return Object.keys(revealed[scopeKey(scope)] ?? {}).sort()
}

/** The items of a list with this window's revealed values shown in their place. */
export function withRevealed(
  items: SecretItemDto[] | undefined,
  values: Record<string, RevealedValue> | undefined,
): SecretItemDto[] | undefined {
  if (!items || !values) return items
  return items.map((i) => {
    const v = values[i.ref]
    return v && i.revealable ? { ...i, shown: v.value, revealed: true } : i
  })
}

export function revealSlice({ set, get, api, timers }: SliceDeps): RevealSlice {
  const clock = timers ?? {
    setTimeout: (fn: () => void, ms: number) => setTimeout(fn, ms),
    clearTimeout: (id: unknown) => clearTimeout(id as number),
  }
  const pending = new Map<string, unknown>()
  const timerKey = (key: string, ref: string) => `${key}\u0000${ref}`
  const drop = (key: string, ref: string) => {
    const t = pending.get(timerKey(key, ref))
    if (t !== undefined) clock.clearTimeout(t)
    pending.delete(timerKey(key, ref))
  }
  return {
    revealed: {},
    async reveal(scope, ref) {
      const key = scopeKey(scope)
      const op = 'exchangeId' in scope ? 'secrets.reveal' : `secrets.reveal:${scope.flowId}`
      const answer = await runOp(set, op, () => api.call('secrets.reveal', { ...scope, ref }))
      if (!answer) return undefined
      drop(key, ref)
      pending.set(
        timerKey(key, ref),
        clock.setTimeout(() => get().maskAgain(scope, ref), REVEAL_MS),
      )
      set((s) => ({
        revealed: {
          ...s.revealed,
          [key]: { ...s.revealed[key], [ref]: { value: answer.value, until: Date.now() + REVEAL_MS } },
        },
      }))
      await get().revealChanged(scope)
      return answer.value
    },
    maskAgain(scope, ref) {
      const key = scopeKey(scope)
      const mine = get().revealed[key]
      if (!mine) return
      const refs = ref === undefined ? Object.keys(mine) : [ref].filter((r) => r in mine)
      if (!refs.length) return
      for (const r of refs) drop(key, r)
      const left = Object.fromEntries(Object.entries(mine).filter(([r]) => !refs.includes(r)))
      set((s) => {
        const revealed = { ...s.revealed }
        if (Object.keys(left).length) revealed[key] = left
        else delete revealed[key]
        return { revealed }
      })
      void get().revealChanged(scope)
    },
    revealChanged(scope) {
      return 'exchangeId' in scope ? get().showRevealed(scope.exchangeId) : Promise.resolve()
    },
  }
}
