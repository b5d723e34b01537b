/** An in-test fake of the renderer's api: answers from given handlers, records calls, emits events on demand. */
import { act } from 'react'
import type { CallName, ContractEvents, EventName } from '../../../../src-main/contract/api.ts'
import type { Api } from '../../../../src-renderer/api/api.ts'
import type { Outcome, UiError } from '../../../../src-renderer/api/transport.ts'

type Handler = (input: any) => unknown // eslint-disable-line @typescript-eslint/no-explicit-any

export interface FakeApi extends Api {
  calls: Array<{ name: CallName; input: unknown }>
  reconnect(): void
  emit<E extends EventName>(name: E, payload: ContractEvents[E]): void
  callsOf(name: CallName): unknown[]
}

/** A failure answer for a handler to return. */
export class Fail {
  constructor(readonly error: UiError) {}
}

export function fail(code: string, what = `${code} failed`): Fail {
  return new Fail({ code, what, cause: 'in a test', fix: 'none needed' })
}

/** Handlers return a value (ok), a Fail (error), or a promise of either; unknown calls fail with NOT_FOUND. */
export function fakeApi(handlers: Partial<Record<CallName, Handler>>, host: 'web' | 'electron' = 'web'): FakeApi {
  const listeners = new Set<{ name: EventName; fn: (p: unknown) => void }>()
  const reconnects = new Set<() => void>()
  const calls: FakeApi['calls'] = []
  return {
    host,
    calls,
    callsOf: (name) => calls.filter((c) => c.name === name).map((c) => c.input),
    async call(name: CallName, ...input: unknown[]) {
      calls.push({ name, input: input[0] })
      const h = handlers[name]
      if (!h)
        return {
          ok: false,
          error: { code: 'NOT_FOUND', what: `no fake for ${name}`, cause: 'test', fix: 'add one' },
        } as Outcome<never>
      const v = await h(input[0])
      return (v instanceof Fail ? { ok: false, error: v.error } : { ok: true, value: v }) as Outcome<never>
    },
    on(name, fn) {
      const l = { name, fn: fn as (p: unknown) => void }
      listeners.add(l)
      return () => listeners.delete(l)
    },
    onReconnect(fn: () => void) {
      reconnects.add(fn)
      return () => reconnects.delete(fn)
    },
    reconnect() {
      for (const fn of reconnects) fn()
    },
    emit(name, payload) {
      for (const l of listeners) if (l.name === name) l.fn(payload)
    },
  } as FakeApi
}

/** Timers the test drives by hand. */
export function manualTimers() {
  let next = 1
  const pending = new Map<number, () => void>()
  return {
    setTimeout(fn: () => void) {
      const id = next++
      pending.set(id, fn)
      return id
    },
    clearTimeout(id: unknown) {
      pending.delete(id as number)
    },
    /** Runs every pending timer (and any they schedule, once). */
    flush() {
      const fns = [...pending.values()]
      pending.clear()
      fns.forEach((f) => f())
    },
    get size() {
      return pending.size
    },
  }
}

/** Lets queued promise callbacks run, inside act() so the renders they cause are flushed (no act() warnings). */
export async function settle(rounds = 5): Promise<void> {
  await act(async () => {
    for (let i = 0; i < rounds; i++) await new Promise((r) => setTimeout(r, 0))
  })
}
