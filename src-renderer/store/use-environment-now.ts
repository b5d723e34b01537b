/** The one source of "now" in the renderer: an environment's time (src-renderer/lib/clock.ts), moving on. */
import { useEffect, useState } from 'react'
import { environmentNow } from '../lib/clock.ts'
import { useApp } from './store.ts'

/** Renders again every `everyMs` (half a minute: countdowns in minutes stay true). */
function useTick(everyMs: number): void {
  const [, setTick] = useState(0)
  useEffect(() => {
    const timer = setInterval(() => setTick((n) => n + 1), everyMs)
    return () => clearInterval(timer)
  }, [everyMs])
}

/**
 * "Now" for an environment: wall time for a bank, wall time plus the local sandbox's offset for the local
 * sandbox (its clock is read on first use, and again when it is moved or a flow step finishes). Every expiry,
 * countdown and "ago" the renderer shows is measured from it.
 */
export function useEnvironmentNow(environmentId: string | undefined, everyMs = 30_000): number {
  const kind = useApp((s) => s.environments.find((e) => e.id === environmentId)?.kind)
  const offset = useApp((s) => s.sandboxClock?.offsetSeconds)
  const load = useApp((s) => s.loadSandboxClock)
  useTick(everyMs)
  const local = kind === 'local-sandbox'
  useEffect(() => {
    if (local && offset === undefined) void load()
  }, [local, offset, load])
  // Read at each render: a render after the clock moved counts from the new offset and the present wall time.
  return environmentNow(Date.now(), kind, offset)
}
