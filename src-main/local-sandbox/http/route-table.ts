import { match, type MatchFunction } from 'path-to-regexp'
import { ObApiError } from './ob-error.ts'

/** One endpoint of an API served under a base path. */
export interface TableRoute {
  method: 'GET' | 'POST' | 'DELETE'
  /** The path after the API's base path, with `{Name}` for a path parameter (as the OpenAPI files write it). */
  path: string
}

/** A route the request reached, with its path parameters decoded (frozen: a hit is shared by the requests that reach it). */
export interface RouteHit<R extends TableRoute> {
  route: R
  params: Readonly<Record<string, string>>
}

/**
 * Hits kept by method and path: a TPP reads the same resources again and again (every page of an account's
 * transactions is one path), and matching a path against the table's expressions one by one was the largest
 * part of routing a request. Only hits are kept, the oldest let go past this many; refusals are made anew.
 */
export const KEPT_HITS = 512

/** Whether `path` is `base` or a path under it (`/a/b` is under `/a`; `/ab` is not). */
export function pathIsUnder(path: string, base: string): boolean {
  return path.startsWith(base) && (path.length === base.length || path[base.length] === '/')
}

/** Identifiers in a path are at most this long once decoded (the v4.0 identifiers are at most 128 characters). */
const MAX_PARAM_LENGTH = 128

/** A path parameter, percent-decoded: 400 `U002` naming the parameter when it is not valid percent-encoding or too long. */
function decodeParam(name: string, raw: string): string {
  let value: string
  try {
    value = decodeURIComponent(raw)
  } catch {
    throw new ObApiError(400, {
      code: 'U002',
      path: name,
      message: `${name} "${raw.slice(0, 60)}" is not valid percent-encoding`,
    })
  }
  if (value.length > MAX_PARAM_LENGTH)
    throw new ObApiError(400, {
      code: 'U002',
      path: name,
      message: `${name} is ${value.length} characters long; identifiers are at most ${MAX_PARAM_LENGTH} characters`,
    })
  return value
}

/**
 * The endpoints of one v4.0 API (AIS, PIS) under its base path on `{base_url}`, matched by path-to-regexp
 * (exact paths: case-sensitive, no trailing slash). A request reaches the route with its method and path; a
 * path no route has is 404 `U011` (with the text `notFound` gives: which endpoints the API serves), a path
 * served with other methods is 405 `U011` with `Allow`, a path parameter that does not decode is 400 `U002`.
 */
export class RouteTable<R extends TableRoute> {
  readonly #routes: ReadonlyArray<{ route: R; match: MatchFunction<Record<string, string>> }>
  readonly #hits = new Map<string, RouteHit<R>>()

  constructor(
    readonly basePath: string,
    routes: readonly R[],
    private readonly notFound: (method: string, path: string) => string,
  ) {
    this.#routes = routes.map((route) => ({
      route,
      match: match<Record<string, string>>(route.path.replace(/\{(\w+)\}/g, ':$1'), {
        decode: false,
        sensitive: true,
        trailing: false,
      }),
    }))
  }

  /** Whether `path` is this API's: its base path or under it. */
  covers(path: string): boolean {
    return pathIsUnder(path, this.basePath)
  }

  /** The route `method` and `path` (with the base path) reach; throws the 404, 405 or 400 described above. */
  resolve(method: string, path: string): RouteHit<R> {
    const key = `${method} ${path}`
    const kept = this.#hits.get(key)
    if (kept) return kept
    const hit = this.#match(method, path)
    if (this.#hits.size >= KEPT_HITS) this.#hits.delete(this.#hits.keys().next().value!)
    this.#hits.set(key, hit)
    return hit
  }

  #match(method: string, path: string): RouteHit<R> {
    const rest = path.slice(this.basePath.length)
    for (const { route, match: matches } of this.#routes) {
      if (route.method !== method) continue
      const hit = matches(rest)
      if (!hit) continue
      const params: Record<string, string> = {}
      for (const [name, raw] of Object.entries(hit.params)) params[name] = decodeParam(name, raw!)
      return Object.freeze({ route, params: Object.freeze(params) })
    }
    const allowed = [...new Set(this.#routes.filter((r) => r.match(rest)).map((r) => r.route.method))]
    if (!allowed.length) throw new ObApiError(404, { code: 'U011', message: this.notFound(method, path) })
    const allow = allowed.join(', ')
    throw new ObApiError(
      405,
      { code: 'U011', message: `${method} is not allowed on ${path}; allowed: ${allow}` },
      { Allow: allow },
    )
  }
}
