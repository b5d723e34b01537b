/**
 * The web host's per-launch token: it arrives once in the page URL fragment (`#token=…`, never sent over
 * the network), is kept in sessionStorage for reloads of this tab, and is removed from the address bar.
 */
import { WEB_HOST_PATHS } from '../../src-main/contract/transport.ts'

export const TOKEN_STORAGE_KEY = 'ob-console.token'

interface Env {
  location: Pick<Location, 'hash' | 'pathname' | 'search'>
  history: Pick<History, 'replaceState'>
  storage: Pick<Storage, 'getItem' | 'setItem'>
}

/** Reads the token from the fragment (storing it and cleaning the address bar) or from sessionStorage. */
export function takeToken(
  env: Env = { location: window.location, history: window.history, storage: window.sessionStorage },
): string | undefined {
  const hash = env.location.hash.replace(/^#/, '')
  const fromHash = new URLSearchParams(hash).get(WEB_HOST_PATHS.tokenFragment)
  if (fromHash) {
    env.storage.setItem(TOKEN_STORAGE_KEY, fromHash)
    env.history.replaceState(null, '', env.location.pathname + env.location.search)
    return fromHash
  }
  return env.storage.getItem(TOKEN_STORAGE_KEY) ?? undefined
}

interface PageEnv extends Env {
  location: Env['location'] & Pick<Location, 'reload'>
  events: Pick<Window, 'addEventListener' | 'removeEventListener'>
}

/**
 * The console restarted on its port (the same origin) and its new URL opened in a tab that shows the old
 * start: only the fragment changes, which loads nothing, so the tab would keep the old token. The new token
 * is taken as at load and the page loads again with it. Returns the function that stops listening.
 */
export function reloadOnNewToken(
  env: PageEnv = {
    location: window.location,
    history: window.history,
    storage: window.sessionStorage,
    events: window,
  },
): () => void {
  const onHashChange = () => {
    const hash = env.location.hash.replace(/^#/, '')
    if (!new URLSearchParams(hash).get(WEB_HOST_PATHS.tokenFragment)) return
    takeToken(env)
    env.location.reload()
  }
  env.events.addEventListener('hashchange', onHashChange)
  return () => env.events.removeEventListener('hashchange', onHashChange)
}
