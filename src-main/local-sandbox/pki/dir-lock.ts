import { mkdirSync, rmSync, statSync } from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'

/** A lock older than this is taken to be left behind by a killed process and is broken. */
const STALE_MS = 30_000
const WAIT_MS = 60_000

/**
 * Runs `fn` while holding an exclusive lock on `lockPath` (a directory created with `mkdir`, which is
 * atomic), so two processes sharing a data directory (a running sandbox and `ob-console sandbox
 * --issue-tpp`, or two sandboxes started together) never generate two different CAs or signing keys.
 */
export async function withDirLock<T>(lockPath: string, fn: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + WAIT_MS
  for (;;) {
    try {
      mkdirSync(lockPath, { mode: 0o700 })
      break
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
      let age = 0
      try {
        age = Date.now() - statSync(lockPath).mtimeMs
      } catch {
        continue // released between mkdir and stat: try again at once
      }
      if (age > STALE_MS) {
        rmSync(lockPath, { recursive: true, force: true })
        continue
      }
      if (Date.now() > deadline) {
        throw new Error(
          `${lockPath} has been held for ${Math.round(age / 1000)} s by another ob-console process; if none is running, delete that directory and retry`,
        )
      }
      await sleep(25 + Math.random() * 50)
    }
  }
  try {
    return await fn()
  } finally {
    rmSync(lockPath, { recursive: true, force: true })
  }
}
