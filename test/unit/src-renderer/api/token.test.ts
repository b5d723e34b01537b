import { describe, expect, it } from 'vitest'
import { reloadOnNewToken, takeToken, TOKEN_STORAGE_KEY } from '../../../../src-renderer/api/token.ts'

function env(hash: string, stored?: string) {
  const store = new Map<string, string>(stored ? [[TOKEN_STORAGE_KEY, stored]] : [])
  const replaced: string[] = []
  return {
    replaced,
    store,
    env: {
      location: { hash, pathname: '/', search: '?x=1' },
      history: {
        replaceState: (_s: unknown, _t: string, url?: string | URL | null) => {
          replaced.push(String(url))
        },
      },
      storage: {
        getItem: (k: string) => store.get(k) ?? null,
        setItem: (k: string, v: string) => void store.set(k, v),
      },
    },
  }
}

describe('takeToken', () => {
  it('reads the fragment once, keeps it in sessionStorage and removes it from the address bar', () => {
    const e = env('#token=abc-123')
    expect(takeToken(e.env)).toBe('abc-123')
    expect(e.store.get(TOKEN_STORAGE_KEY)).toBe('abc-123')
    expect(e.replaced).toEqual(['/?x=1'])
  })

  it('falls back to sessionStorage after a reload (no fragment), without touching the address bar', () => {
    const e = env('', 'kept')
    expect(takeToken(e.env)).toBe('kept')
    expect(e.replaced).toEqual([])
  })

  it('is undefined when the page was opened without a token', () => {
    expect(takeToken(env('#other=1').env)).toBeUndefined()
  })
})

describe('reloadOnNewToken', () => {
  function page(stored: string) {
    const e = env('', stored)
    const listeners = new Set<() => void>()
    let reloads = 0
    const location = { ...e.env.location, reload: () => void reloads++ }
    const events = {
      addEventListener: (name: string, l: () => void) => name === 'hashchange' && listeners.add(l),
      removeEventListener: (name: string, l: () => void) => name === 'hashchange' && listeners.delete(l),
    } as unknown as Pick<Window, 'addEventListener' | 'removeEventListener'>
    const stop = reloadOnNewToken({ ...e.env, location, events })
    const navigate = (hash: string) => {
      location.hash = hash
      for (const l of listeners) l()
    }
    return { ...e, navigate, stop, reloads: () => reloads, listening: () => listeners.size }
  }

  it("a new start's URL opened in an old tab (only the fragment changes): the new token is kept and the page loads again", () => {
    const p = page('old-start')
    p.navigate('#token=new-start')
    expect(p.store.get(TOKEN_STORAGE_KEY)).toBe('new-start')
    expect(p.replaced).toEqual(['/?x=1'])
    expect(p.reloads()).toBe(1)
  })

  it('a fragment without a token changes nothing; stop() stops listening', () => {
    const p = page('kept')
    p.navigate('#section-2')
    expect(p.store.get(TOKEN_STORAGE_KEY)).toBe('kept')
    expect(p.reloads()).toBe(0)
    p.stop()
    expect(p.listening()).toBe(0)
  })
})
