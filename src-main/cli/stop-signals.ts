/** The exit code of a command stopped by a signal, as shells report it (128 + the signal's number). */
export const SIGNAL_EXIT_CODES = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 } as const

export type StopSignal = keyof typeof SIGNAL_EXIT_CODES

export interface StopSignalOptions {
  /** Prints one line (standard error). */
  note: (line: string) => void
  /** The longest the clean-up may take before the process exits anyway (default 5 s). */
  graceMs?: number
  /** Ends the process (tests give theirs). */
  exit?: (code: number) => void
}

/**
 * On SIGINT, SIGTERM or SIGHUP (the terminal closed): runs `cleanup` once (servers stopped, throwaway files
 * removed), then exits with 130, 143 or 129. A clean-up that hangs is cut off after the grace time, and a second signal exits at once:
 * the process never stays behind. Returns the function that removes the handlers.
 */
export function onStopSignals(cleanup: () => Promise<void>, options: StopSignalOptions): () => void {
  const exit = options.exit ?? ((code: number) => process.exit(code))
  let stopping = false
  const handler = (signal: StopSignal) => {
    const code = SIGNAL_EXIT_CODES[signal]
    if (stopping) {
      exit(code)
      return
    }
    stopping = true
    options.note(`ob-console: stopped by ${signal}; cleaning up.`)
    let timer: NodeJS.Timeout | undefined
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        options.note(`ob-console: the clean-up took over ${options.graceMs ?? 5000} ms; exiting without it.`)
        resolve()
      }, options.graceMs ?? 5000)
    })
    void Promise.race([
      cleanup().catch((err: unknown) => options.note(`ob-console: the clean-up failed: ${(err as Error).message}`)),
      late,
    ]).then(() => {
      clearTimeout(timer)
      exit(code)
    })
  }
  const handlers = (Object.keys(SIGNAL_EXIT_CODES) as StopSignal[]).map((s) => [s, () => handler(s)] as const)
  for (const [s, h] of handlers) process.on(s, h)
  return () => {
    for (const [s, h] of handlers) process.off(s, h)
  }
}
