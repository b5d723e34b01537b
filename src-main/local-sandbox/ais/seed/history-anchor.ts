import type { BankDocuments } from '../../store/bank-documents.ts'
import { DAY_MS, startOfUtcDay } from './calendar.ts'

interface AnchorFile {
  /** The anchor day, `YYYY-MM-DD` (UTC): day 0 of the generated history. */
  anchorDate: string
}

/** The bank document of the anchor: `state/ais-history.json` in an embedded data directory. */
export const ANCHOR_DOCUMENT = 'state/ais-history.json'

/** The saved anchor (ms) when it can be kept at `today`; undefined when it must be replaced, with the reason logged. */
function usable(
  text: string | undefined,
  today: number,
  reanchorAfterDays: number,
  log: (line: string) => void,
): number | undefined {
  if (text === undefined) return undefined
  let saved: Partial<AnchorFile> | null = null
  try {
    saved = JSON.parse(text) as Partial<AnchorFile> | null
  } catch (err) {
    log(
      `local sandbox AIS: ${ANCHOR_DOCUMENT} is not valid JSON (${(err as Error).message}); taking a new history anchor`,
    )
    return undefined
  }
  const date = saved?.anchorDate
  const savedMs = typeof date === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(date) ? Date.parse(`${date}T00:00:00Z`) : NaN
  if (Number.isFinite(savedMs) && savedMs <= today && today - savedMs <= reanchorAfterDays * DAY_MS) return savedMs
  log(
    `local sandbox AIS: history anchor ${String(date)} replaced by ${new Date(today).toISOString().slice(0, 10)} (older than ${reanchorAfterDays} days, in the future or malformed)`,
  )
  return undefined
}

/**
 * The anchor of the generated history: the sandbox date (UTC) of the first start with this bank, kept as
 * the bank document `state/ais-history.json` (the data directory's file, or the store's row, so every
 * instance on a shared store shows the same transactions), so transactions keep their dates and ids
 * across restarts. A new anchor (today) is taken, under the bank-wide lock, when the document is missing
 * or unreadable, when it is more than `reanchorAfterDays` old (the history would look stale), or when it
 * lies in the future (the data came from a sandbox whose clock ran ahead).
 */
export async function loadOrCreateAnchor(
  docs: BankDocuments,
  nowMs: number,
  reanchorAfterDays: number,
  log: (line: string) => void,
): Promise<number> {
  const today = startOfUtcDay(nowMs)
  const kept = usable(await docs.read(ANCHOR_DOCUMENT), today, reanchorAfterDays, () => {})
  if (kept !== undefined) return kept
  return docs.withLock(async () => {
    // Another instance may have replaced it a moment ago: its anchor is then the one to keep.
    const again = usable(await docs.read(ANCHOR_DOCUMENT), today, reanchorAfterDays, log)
    if (again !== undefined) return again
    const anchor: AnchorFile = { anchorDate: new Date(today).toISOString().slice(0, 10) }
    await docs.write(ANCHOR_DOCUMENT, JSON.stringify(anchor, null, 2) + '\n')
    return today
  })
}
