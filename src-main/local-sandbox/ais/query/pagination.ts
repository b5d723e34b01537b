import type { Links } from '../../../plumbing/ob-wire/account-info.ts'
import { ObApiError } from '../../http/ob-error.ts'

/** Transactions per page (the bank's spec, section 8). */
export const PAGE_SIZE = 100

/** The v4.0 `Links` of a list answer, as the official schema types it. */
export type { Links }

export interface Page {
  /** Items [start, end) of the full list are on this page. */
  start: number
  end: number
  totalPages: number
  links: Links
}

/**
 * The page `page` of a list of `total` items: its bounds and the v4.0 `Links`, absolute URLs on
 * `{base_url}` that carry the request's filter parameters plus `page`. `Next` only when another page
 * follows and `Prev` only after the first. A page past the last is 400 U002 (page 1 of an empty list is
 * valid, with `TotalPages` 1).
 */
export function paginate(total: number, page: number, url: string, filters: Record<string, string>): Page {
  const totalPages = Math.max(1, Math.ceil(total / PAGE_SIZE))
  if (page > totalPages) {
    throw new ObApiError(400, {
      code: 'U002',
      path: 'page',
      message: `page ${page} is past the last page (${totalPages}) of this list of ${total} transactions; follow Links.Next and stop when it is absent`,
    })
  }
  const link = (n: number) => {
    const q = new URLSearchParams(filters)
    q.set('page', String(n))
    return `${url}?${q.toString()}`
  }
  const links: Links = { Self: link(page), First: link(1) }
  if (page > 1) links.Prev = link(page - 1)
  if (page < totalPages) links.Next = link(page + 1)
  links.Last = link(totalPages)
  return { start: (page - 1) * PAGE_SIZE, end: Math.min(total, page * PAGE_SIZE), totalPages, links }
}
