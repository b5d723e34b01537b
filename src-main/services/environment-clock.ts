/**
 * One clock per environment on the main side, as the renderer has (`src-renderer/lib/clock.ts`): wall time
 * for a bank, wall time plus the local sandbox's clock offset for the local sandbox. The offset is learnt
 * from every answer of the sandbox's clock (`sandbox-clock.ts`: read or moved) and read again before the
 * figures that depend on it (the PSU-absent budget, consent expiry): asked of the running sandbox, or read
 * from the embedded sandbox's store while it is stopped (the CLI's `consent list` starts no sandbox).
 */
import type { SandboxClockDto } from '../contract/api.ts'

export interface EnvironmentClockDeps {
  /** Wall time (ms since the epoch). */
  wall?: () => number
  /** The local sandbox environment's id, when there is one. */
  localSandboxId: () => string | undefined
  /** Whether the local sandbox runs (its clock can be asked). */
  running: () => boolean
  /** Reads the running local sandbox's clock (`GET {directory}/admin/clock`). */
  readSandboxClock: () => Promise<SandboxClockDto>
  /** The offset (ms) the stopped embedded sandbox keeps in its store, where it can be read without starting it. */
  storedOffsetMs?: () => number
}

export class EnvironmentClocks {
  readonly #offsetMs = new Map<string, number>()
  readonly #wall: () => number
  #reading: Promise<void> | undefined

  constructor(private readonly deps: EnvironmentClockDeps) {
    this.#wall = deps.wall ?? Date.now
  }

  /** Now on `environmentId`'s clock (ms since the epoch); wall time for a bank, or with no environment named. */
  now(environmentId?: string): number {
    return this.#wall() + (environmentId ? (this.#offsetMs.get(environmentId) ?? 0) : 0)
  }

  /** The offset an answer of the local sandbox's clock gave. */
  learn(answer: SandboxClockDto): void {
    const id = this.deps.localSandboxId()
    if (id) this.#offsetMs.set(id, answer.offsetSeconds * 1000)
  }

  /**
   * Reads the local sandbox's clock again when `environmentId` is the local sandbox (nothing for a bank).
   * A sandbox that does not answer leaves the last offset learnt: the figures it feeds are advisory.
   */
  async refresh(environmentId?: string): Promise<void> {
    const local = this.deps.localSandboxId()
    if (!local || (environmentId !== undefined && environmentId !== local)) return
    if (!this.deps.running()) {
      try {
        const stored = this.deps.storedOffsetMs?.()
        if (stored !== undefined) this.#offsetMs.set(local, stored)
      } catch {
        // A store file the sandbox itself refuses to read: it says so when it starts; the last offset stays.
      }
      return
    }
    this.#reading ??= this.deps
      .readSandboxClock()
      .then((answer) => this.learn(answer))
      .catch(() => undefined)
      .finally(() => {
        this.#reading = undefined
      })
    await this.#reading
  }
}
