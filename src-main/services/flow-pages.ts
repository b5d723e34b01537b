import type { FlowPage, FlowPageQuery, FlowState } from '../contract/flows.ts'
import { AppError } from '../core/app-error.ts'

export const FLOW_PAGE_DEFAULT = 50

/** The page size when the caller names none: 50, or `OB_CONSOLE_FLOW_PAGE_SIZE` (for tests that need several pages). */
function defaultLimit(): number {
  const n = Number(process.env.OB_CONSOLE_FLOW_PAGE_SIZE)
  return Number.isInteger(n) && n >= 1 && n <= FLOW_PAGE_MAX ? n : FLOW_PAGE_DEFAULT
}
export const FLOW_PAGE_MAX = 500

/** Newest first; flows made in the same millisecond by id, so the order (and a cursor) is total. */
const newestFirst = (a: FlowState, b: FlowState): number =>
  b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id)

const cursorOf = (f: FlowState): string => `${f.createdAt}|${f.id}`

function parseCursor(before: string): { createdAt: string; id: string } {
  const at = before.indexOf('|')
  if (at <= 0 || Number.isNaN(Date.parse(before.slice(0, at))))
    throw new AppError('INVALID_INPUT', {
      what: `"${before.slice(0, 80)}" is not a cursor of the flows list.`,
      cause: 'A cursor is the `next` of a page the flows list answered.',
      fix: 'Pass the `next` of the previous page, or no `before` for the newest page.',
    })
  return { createdAt: before.slice(0, at), id: before.slice(at + 1) }
}

/**
 * One page of the flows: the live runs and the kept history together (a live run wins over its kept copy),
 * newest first, those older than the cursor `before`, at most `limit`.
 */
export function flowPage(live: FlowState[], kept: FlowState[], query: FlowPageQuery = {}): FlowPage {
  const limit = query.limit ?? defaultLimit()
  if (!Number.isInteger(limit) || limit < 1 || limit > FLOW_PAGE_MAX)
    throw new AppError('INVALID_INPUT', {
      what: `A page of ${limit} flows cannot be listed.`,
      cause: `limit is a whole number from 1 to ${FLOW_PAGE_MAX}.`,
      fix: `Ask for a page of 1 to ${FLOW_PAGE_MAX} flows.`,
    })
  const byId = new Map(kept.map((f) => [f.id, f]))
  for (const f of live) byId.set(f.id, f)
  let all = [...byId.values()].sort(newestFirst)
  if (query.ids) {
    const wanted = new Set(query.ids)
    all = all.filter((f) => wanted.has(f.id))
  }
  if (query.before) {
    const c = parseCursor(query.before)
    const edge = { createdAt: c.createdAt, id: c.id } as FlowState
    all = all.filter((f) => newestFirst(edge, f) < 0)
  }
  const flows = all.slice(0, limit)
  const more = all.length - flows.length
  const last = flows.at(-1)
  return { flows, more, ...(more > 0 && last ? { next: cursorOf(last) } : {}) }
}
