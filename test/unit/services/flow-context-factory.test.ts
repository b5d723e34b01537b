import { describe, expect, it } from 'vitest'
import { AppError } from '../../../src-main/core/app-error.ts'
import { redirectUriFor } from '../../../src-main/services/flow-context-factory.ts'

const loopback = 'http://127.0.0.1:53682/callback'
const uris = ['https://tpp.example/cb', 'ob-console://oauth/callback', loopback]

describe('redirectUriFor (the registered URI the PSU returns to)', () => {
  it("is the listener's URI for loopback and headless capture when the client has it", () => {
    expect(redirectUriFor(uris, 'loopback', loopback)).toBe(loopback)
    expect(redirectUriFor(uris, 'headless', loopback)).toBe(loopback)
    expect(redirectUriFor(uris, 'headless', 'http://127.0.0.1:1/callback')).toBe(uris[0])
  })

  it("is the console's scheme for deeplinks and the auth window, and an https URI when pasting", () => {
    expect(redirectUriFor(uris, 'deeplink', loopback)).toBe('ob-console://oauth/callback')
    expect(redirectUriFor(uris, 'auth-window')).toBe('ob-console://oauth/callback')
    expect(redirectUriFor([loopback, 'https://tpp.example/cb'], 'pasted')).toBe('https://tpp.example/cb')
    expect(redirectUriFor([loopback], 'deeplink')).toBe(loopback)
  })

  it('refuses a client with no redirect URI, and loopback capture the client is not registered for', () => {
    expect(() => redirectUriFor([], 'pasted')).toThrow(AppError)
    expect(() => redirectUriFor([], 'pasted')).toThrow(/no redirect URI/)
    expect(() => redirectUriFor(['https://tpp.example/cb'], 'loopback', loopback)).toThrow(
      /Loopback capture needs the client registered/,
    )
    expect(() => redirectUriFor(['https://tpp.example/cb'], 'loopback')).toThrow(AppError)
  })
})
