import { AppError } from '../../core/app-error.ts'

/** A page of a v4.0 list response: `Data`, `Links.Next`, `Meta.TotalPages`. */
export interface ObPage {
  Data?: unknown
  Links?: { Self?: string; First?: string; Prev?: string; Next?: string; Last?: string }
  Meta?: { TotalPages?: number }
}

export interface PaginationResult {
  /** Pages fetched. The pages themselves are not kept: take what you need of each in `fetchPage`. */
  pages: number
  /** Why following stopped: no `Next` (the last page), or the page cap. */
  stoppedBecause: 'last-page' | 'page-cap'
}

const REPORT =
  'The console does not follow it; the pages read so far are in the exchange log. Report the link to the bank, then re-run this step.'

/**
 * Follows `Links.Next` from the first page until the last. Each `Next` must be a URL, over https, on the
 * origin of the page that gave it, and not a page already read: anything else is a coded error and is
 * never requested (the console would send its client certificate and token elsewhere, in the clear, or
 * read the same pages forever). `maxPages` stops a very long walk. Each page is let go once its `Next` is
 * read, so a long history is never held whole as the bank's records.
 */
export async function followPages(
  firstUrl: string,
  fetchPage: (url: string) => Promise<ObPage>,
  opts: { maxPages?: number; label?: string } = {},
): Promise<PaginationResult> {
  const maxPages = opts.maxPages ?? 1000
  const read = new Map<string, number>()
  let pages = 0
  let url = firstUrl
  for (;;) {
    read.set(url, pages + 1)
    const page = await fetchPage(url)
    pages++
    // The page's own address counts as read too (the first page is often asked for without ?page=1).
    const self = page.Links?.Self
    if (typeof self === 'string') {
      try {
        const selfUrl = new URL(self, url).toString()
        if (!read.has(selfUrl)) read.set(selfUrl, pages)
      } catch {
        // A malformed Self is not what this walk reads.
      }
    }
    const next = page.Links?.Next
    if (next === undefined || next === null || next === '') return { pages, stoppedBecause: 'last-page' }
    const where = `${opts.label ? `Reading ${opts.label}: ` : ''}Links.Next of page ${pages}`
    const details = { page: pages, next: String(next).slice(0, 300) }
    if (typeof next !== 'string') {
      throw new AppError('BANK_ANSWER_INVALID', {
        what: `${where} is not a string but ${JSON.stringify(next).slice(0, 80)}.`,
        cause: 'The bank returned a malformed pagination link.',
        fix: REPORT,
        details,
      })
    }
    let nextUrl: URL
    try {
      nextUrl = new URL(next, url)
    } catch {
      throw new AppError('BANK_ANSWER_INVALID', {
        what: `${where} is not a URL: "${next.slice(0, 120)}".`,
        cause: 'The bank returned a malformed pagination link.',
        fix: REPORT,
        details,
      })
    }
    const origin = new URL(url).origin
    if (nextUrl.protocol !== 'https:') {
      throw new AppError('ORIGIN_NOT_ALLOWED', {
        what: `${where} is not https: ${nextUrl.origin}.`,
        cause: `Following it would send the access token over ${nextUrl.protocol.replace(':', '')} (the bank's API is served over https with mutual TLS); the bank built the link from a wrong base URL.`,
        fix: REPORT,
        details,
      })
    }
    if (nextUrl.origin !== origin) {
      throw new AppError('ORIGIN_NOT_ALLOWED', {
        what: `${where} points to another host: ${nextUrl.origin}.`,
        cause: `Page ${pages} came from ${origin}; following would send the access token and client certificate elsewhere.`,
        fix: REPORT,
        details,
      })
    }
    const again = read.get(nextUrl.toString())
    if (again !== undefined) {
      throw new AppError('BANK_ANSWER_INVALID', {
        what: `${where} points back to page ${again}, already read (${nextUrl.pathname}${nextUrl.search}).`,
        cause: "The bank's pagination loops: following it would read the same transactions again and again.",
        fix: REPORT,
        details,
      })
    }
    if (pages >= maxPages) return { pages, stoppedBecause: 'page-cap' }
    url = nextUrl.toString()
  }
}
