import { AppError } from '../../core/app-error.ts'
import type { LoopbackListener } from './loopback-listener.ts'
import type { CapturedRedirect } from './redirect-params.ts'

/**
 * Where a waiting flow gets the PSU's return from, whichever way it comes: the loopback listener, the
 * desktop shell's custom-scheme handler, or a URL the user pastes. Matched by `state`.
 */
export class CaptureHub {
  readonly #waiters = new Map<string, (c: CapturedRedirect) => void>()
  readonly #early = new Map<string, CapturedRedirect>()

  constructor(private readonly listener?: LoopbackListener) {}

  /** The loopback redirect URI, when a listener runs. */
  get loopbackRedirectUri(): string | undefined {
    return this.listener?.redirectUri
  }

  /** Hands a redirect to the flow waiting on its state; returns whether one was waiting. */
  deliver(captured: CapturedRedirect): boolean {
    const waiter = captured.state ? this.#waiters.get(captured.state) : undefined
    if (waiter && captured.state) {
      this.#waiters.delete(captured.state)
      waiter(captured)
      return true
    }
    if (captured.state) this.#early.set(captured.state, captured)
    return false
  }

  /** Waits for the redirect carrying `state`; rejects after `timeoutMs` with a sentence saying how to continue. */
  wait(state: string, timeoutMs: number): Promise<CapturedRedirect> {
    const early = this.#early.get(state)
    if (early) {
      this.#early.delete(state)
      return Promise.resolve(early)
    }
    return new Promise((resolve, reject) => {
      let settled = false
      const done = (c: CapturedRedirect) => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        this.#waiters.delete(state)
        resolve(c)
      }
      const timer = setTimeout(() => {
        if (settled) return
        settled = true
        this.#waiters.delete(state)
        reject(
          new AppError('TIMEOUT', {
            what: `The PSU's return did not arrive within ${Math.round(timeoutMs / 1000)} s.`,
            cause: 'The PSU has not finished at the bank, or the redirect went somewhere the console does not listen.',
            fix: 'Finish the authorisation, or paste the URL the browser returned to, then re-run the capture step.',
          }),
        )
      }, timeoutMs)
      timer.unref?.()
      this.#waiters.set(state, done)
      this.listener?.waitFor(state, timeoutMs).then(done, () => undefined)
    })
  }
}
