import { Agent, request } from 'undici'

/** What a navigation ended on: a page of the sandbox, or a redirect that leaves the sandbox. */
export type Landing =
  | { kind: 'page'; status: number; url: string; html: string }
  | { kind: 'redirect'; status: number; location: string; params: URLSearchParams }

/**
 * A minimal browser for the PSU pages: a cookie jar, redirects followed within the sandbox's origins,
 * plain HTML form posts (application/x-www-form-urlencoded). No JavaScript, like the pages.
 */
export class PsuBrowser {
  readonly #jar = new Map<string, string>()
  readonly #agent: Agent

  /** `freshConnections`: a new connection for every request (behind a balancer, each may reach another instance). */
  constructor(
    caBundlePem: string,
    private readonly sandboxOrigins: string[],
    options: { freshConnections?: boolean } = {},
  ) {
    this.#agent = new Agent({
      connect: { ca: caBundlePem },
      ...(options.freshConnections ? { pipelining: 0 } : { connections: 1 }),
    })
  }

  async close(): Promise<void> {
    await this.#agent.close()
  }

  get(url: string): Promise<Landing> {
    return this.#navigate('GET', url)
  }

  /** Posts a form; repeated fields (checkboxes) are given as arrays. */
  post(url: string, form: Record<string, string | string[]>): Promise<Landing> {
    const body = new URLSearchParams()
    for (const [k, v] of Object.entries(form)) for (const value of Array.isArray(v) ? v : [v]) body.append(k, value)
    return this.#navigate('POST', url, body.toString())
  }

  async #navigate(method: string, start: string, body?: string): Promise<Landing> {
    let url = start
    let currentMethod = method
    let currentBody = body
    for (let hop = 0; hop < 10; hop++) {
      const headers: Record<string, string> = { accept: 'text/html' }
      if (this.#jar.size) headers.cookie = [...this.#jar].map(([k, v]) => `${k}=${v}`).join('; ')
      if (currentBody !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded'
      const res = await request(url, {
        method: currentMethod as 'GET',
        headers,
        body: currentBody,
        dispatcher: this.#agent,
      })
      const setCookie = res.headers['set-cookie']
      for (const c of Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : []) {
        const [pair] = c.split(';')
        const eq = pair!.indexOf('=')
        const name = pair!.slice(0, eq).trim()
        const value = pair!.slice(eq + 1).trim()
        if (value === '' || /expires=Thu, 01 Jan 1970/i.test(c)) this.#jar.delete(name)
        else this.#jar.set(name, value)
      }
      const html = await res.body.text()
      const location = res.headers.location as string | undefined
      if (res.statusCode >= 300 && res.statusCode < 400 && location) {
        const next = new URL(location, url)
        if (!this.sandboxOrigins.includes(next.origin)) {
          return {
            kind: 'redirect',
            status: res.statusCode,
            location: next.href,
            params: new URLSearchParams(next.hash ? next.hash.slice(1) : next.search.slice(1)),
          }
        }
        url = next.href
        currentMethod = 'GET'
        currentBody = undefined
        continue
      }
      return { kind: 'page', status: res.statusCode, url, html }
    }
    throw new Error(`more than 10 redirects from ${start}`)
  }
}

/** The `action` of the first form whose action contains `needle`, as an absolute URL. */
export function formAction(page: Extract<Landing, { kind: 'page' }>, needle: string): string {
  const match = [...page.html.matchAll(/<form[^>]*action="([^"]+)"/g)].map((m) => m[1]!).find((a) => a.includes(needle))
  if (!match) throw new Error(`no form with action containing ${needle} in:\n${page.html}`)
  return new URL(match.replace(/&amp;/g, '&'), page.url).href
}
