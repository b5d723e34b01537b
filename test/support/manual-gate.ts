import type { QuietGate } from '../../src-main/http/quiet-time.ts'

/** A gate whose quiet moment comes when the test says (`quiet()`); it counts the waits and the hurries. */
export function manualGate(): QuietGate & { quiet(): void; waits: number; hurries: number } {
  let waiting: Array<() => void> = []
  const release = () => {
    const w = waiting
    waiting = []
    for (const go of w) go()
  }
  return {
    waits: 0,
    hurries: 0,
    now: () => 0,
    wait() {
      this.waits++
      return new Promise((go) => waiting.push(go))
    },
    hurry() {
      this.hurries++
      release()
    },
    quiet: release,
  }
}

/** Lets `n` turns of the event loop pass (work handed to the next turn runs). */
export async function turns(n = 5): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r))
}
