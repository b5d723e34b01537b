/**
 * Where each desktop window may navigate, decided without Electron (the wiring is web-contents-guard.ts).
 *
 * - The console's window: its own renderer (file:// of the built renderer) and nothing else.
 * - The auth window: the bank's pages over https (a bank's login may move across its own hosts, so no
 *   host list), plain http only on the loopback address (the local sandbox, a test bank); a URL at the
 *   registered redirect URI is intercepted (never loaded) and handed to the flow.
 * - Anything else the app creates: nowhere.
 */
export type NavigationDecision = { action: 'allow' } | { action: 'intercept' } | { action: 'deny'; reason: string }
export type NavigationPolicy = (url: string) => NavigationDecision

const deny = (reason: string): NavigationDecision => ({ action: 'deny', reason })

/**
 * A URL as it may be logged: scheme, host and path only. The query and fragment of a URL in the auth
 * window may hold an authorisation code or tokens, and credentials never belong in a log.
 */
export function describeUrl(raw: string): string {
  const url = parse(raw)
  if (!url) return JSON.stringify(raw.replace(/[?#].*$/s, '').slice(0, 120))
  return url.protocol === 'file:' || url.host
    ? `${url.protocol}//${url.host}${url.pathname}`.slice(0, 200)
    : url.protocol
}

function parse(raw: string): URL | undefined {
  try {
    return new URL(raw)
  } catch {
    return undefined
  }
}

/** Nothing may navigate: the default for any web contents the app did not give a policy. */
export const denyAllNavigation: NavigationPolicy = (url) =>
  deny(`this window may not navigate (to ${describeUrl(url)})`)

/** The console's window: only pages under its renderer's URL prefix (a `file://` directory URL ending in `/`). */
export function consoleWindowPolicy(rendererUrlPrefix: string): NavigationPolicy {
  return (url) =>
    url.startsWith(rendererUrlPrefix)
      ? { action: 'allow' }
      : deny(`the console window only shows its own pages, not ${describeUrl(url)}`)
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]'])

/** Scheme, host, port and path: what "the same redirect URI" means (query and fragment carry the answer). */
function endpoint(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname}`
}

/**
 * True when `url` is a return to `redirectUri`: same scheme, host, port and path (RFC 6749 3.1.2 compares
 * the redirect URI exactly; the bank adds the answer in the query or the fragment).
 */
export function isRedirectTo(url: string, redirectUri: string): boolean {
  const u = parse(url)
  const r = parse(redirectUri)
  return !!u && !!r && !u.username && !u.password && endpoint(u) === endpoint(r)
}

/** The auth window: the bank's pages (https; http on loopback only); the redirect URI is intercepted. */
export function authWindowPolicy(redirectUri: string): NavigationPolicy {
  return (raw) => {
    if (isRedirectTo(raw, redirectUri)) return { action: 'intercept' }
    const url = parse(raw)
    if (!url) return deny(`not a URL: ${describeUrl(raw)}`)
    if (url.username || url.password) return deny('URLs with credentials in them are not loaded')
    if (url.protocol === 'https:') return { action: 'allow' }
    if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return { action: 'allow' }
    return deny(
      `the auth window only loads the bank's https pages (http on the loopback address), not ${describeUrl(raw)}`,
    )
  }
}
