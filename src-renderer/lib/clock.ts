/**
 * One clock for the renderer: what "now" is for an environment (the local sandbox's clock may be ahead of wall
 * time; a bank's is wall time), and a time relative to that now in words. Pure: the caller passes the wall time.
 */

/** The kinds of environment whose clock is not wall time. */
const OFFSET_KINDS = new Set(['local-sandbox'])

/**
 * The environment's time: wall time, plus the local sandbox's offset (seconds; unknown until read, counted as
 * none). A bank environment or no environment: wall time.
 */
export function environmentNow(wallMs: number, kind: string | undefined, sandboxOffsetSeconds?: number): number {
  return kind && OFFSET_KINDS.has(kind) ? wallMs + (sandboxOffsetSeconds ?? 0) * 1000 : wallMs
}

/** `5 h 12 min`, `3 min`, `under a minute`, `2 d 4 h`. */
export function formatDuration(ms: number): string {
  if (ms < 60_000) return 'under a minute'
  const min = Math.floor(ms / 60_000)
  const d = Math.floor(min / 1440)
  const h = Math.floor((min % 1440) / 60)
  const m = min % 60
  if (d) return `${d} d${h ? ` ${h} h` : ''}`
  if (h) return `${h} h${m ? ` ${m} min` : ''}`
  return `${m} min`
}

/**
 * A time against now: `in 23 h 51 min` ahead, `6 d ago` behind (`past`: it is not ahead). An unreadable time
 * gives undefined.
 */
export function relativeTime(at: string | number, now: number): { words: string; past: boolean } | undefined {
  const ms = typeof at === 'number' ? at : Date.parse(at)
  if (!Number.isFinite(ms)) return undefined
  const left = ms - now
  return left > 0
    ? { words: `in ${formatDuration(left)}`, past: false }
    : { words: `${formatDuration(-left)} ago`, past: true }
}
