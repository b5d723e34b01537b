import { join } from 'node:path'
import { JsonFile } from '../../store/json-file.ts'
import { DAY_MS, startOfUtcDay } from './calendar.ts'

interface AnchorFile {
  /** The anchor day, `YYYY-MM-DD` (UTC): day 0 of the generated history. */
  anchorDate: string
}

/**
 * The anchor of the generated history: the sandbox date (UTC) of the first start with this data
 * directory, kept in `state/ais-history.json`, so transactions keep their dates and ids across restarts.
 * A new anchor (today) is taken when the file is missing or unreadable, when it is more than
 * `reanchorAfterDays` old (the history would look stale), or when it lies in the future (the data
 * directory came from a sandbox whose clock ran ahead).
 */
export function loadOrCreateAnchor(
  stateDir: string,
  nowMs: number,
  reanchorAfterDays: number,
  log: (line: string) => void,
): number {
  const file = new JsonFile<AnchorFile | null>(join(stateDir, 'ais-history.json'), () => null)
  const today = startOfUtcDay(nowMs)
  let saved: AnchorFile | null = null
  try {
    saved = file.read()
  } catch (err) {
    log(`local sandbox AIS: ${(err as Error).message}; taking a new history anchor`)
  }
  const savedMs =
    saved && /^\d{4}-\d{2}-\d{2}$/.test(saved.anchorDate) ? Date.parse(`${saved.anchorDate}T00:00:00Z`) : NaN
  if (Number.isFinite(savedMs) && savedMs <= today && today - savedMs <= reanchorAfterDays * DAY_MS) return savedMs
  const anchorDate = new Date(today).toISOString().slice(0, 10)
  if (saved)
    log(
      `local sandbox AIS: history anchor ${saved.anchorDate} replaced by ${anchorDate} (older than ${reanchorAfterDays} days, in the future or malformed)`,
    )
  file.write({ anchorDate })
  return today
}
