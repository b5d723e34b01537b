import { describe, expect, it } from 'vitest'
import { takeToken, TOKEN_STORAGE_KEY } from '../../../../src-renderer/api/token.ts'

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
