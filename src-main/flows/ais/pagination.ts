/** A page of a v4.0 list response: `Data`, `Links.Next`, `Meta.TotalPages`. */
export interface ObPage {
  Data?: Record<string, unknown>
  Links?: { Self?: string; First?: string; Prev?: string; Next?: string; Last?: string }
  Meta?: { TotalPages?: number }
}

export class PaginationError extends Error {
  constructor(readonly code: 'ORIGIN_NOT_ALLOWED' | 'INVALID_INPUT', readonly what: string, override readonly cause: string, readonly fix: string) {
    super(what)
  }
}

export interface PaginationResult {
  /** Pages fetched. The pages themselves are not kept: take what you need of each in `fetchPage`. */
  pages: number
  /** Why following stopped: no `Next`, a `Next` seen before (a loop), or the page cap. */
  stoppedBecause: 'last-page' | 'loop' | 'page-cap'
}

/**
 * Follows `Links.Next` from the first page until the last. A `Next` on another origin than the first
 * page's is refused (the console never sends its client certificate and token to another host); a `Next`
 * already visited stops the walk (a loop), as does `maxPages`. Each page is let go once its `Next` is
 * read, so a long history is never held whole as the bank's records.
 */
export async function followPages(firstUrl: string, fetchPage: (url: string) => Promise<ObPage>, opts: { maxPages?: number } = {}): Promise<PaginationResult> {
  const maxPages = opts.maxPages ?? 1000
  const origin = new URL(firstUrl).origin
  const seen = new Set<string>()
  let pages = 0
  let url: string | undefined = firstUrl
  while (url) {
    seen.add(url)
    const page = await fetchPage(url)
    pages++
    const next = page.Links?.Next
    if (!next) return { pages, stoppedBecause: 'last-page' }
    let nextUrl: URL
    try {
      nextUrl = new URL(next, url)
    } catch {
      throw new PaginationError('INVALID_INPUT', `Links.Next of page ${pages} is not a URL: "${next}".`, 'The bank returned a malformed pagination link.', 'Report it to the bank; the pages fetched so far are kept.')
    }
    if (nextUrl.origin !== origin) {
      throw new PaginationError('ORIGIN_NOT_ALLOWED', `Links.Next of page ${pages} points to another host: ${nextUrl.origin}.`, `The first page came from ${origin}; following would send the access token and client certificate elsewhere.`, 'The console refuses to follow it. Report the link to the bank.')
    }
    if (seen.has(nextUrl.toString())) return { pages, stoppedBecause: 'loop' }
    if (pages >= maxPages) return { pages, stoppedBecause: 'page-cap' }
    url = nextUrl.toString()
  }
  return { pages, stoppedBecause: 'last-page' }
}
