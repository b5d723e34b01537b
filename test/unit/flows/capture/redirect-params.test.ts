import { describe, expect, it } from 'vitest'
import {
  explainAuthorisationError,
  parseRedirect,
  RedirectParseError,
} from '../../../../src-main/flows/capture/redirect-params.ts'

describe('parseRedirect', () => {
  it('reads the hybrid response from the fragment', () => {
    const r = parseRedirect('https://tpp.example/cb#code=abc&id_token=h.p.s&state=st1', 'pasted')
    expect(r).toMatchObject({ source: 'pasted', code: 'abc', idToken: 'h.p.s', state: 'st1' })
  })

  it('reads an error from the query and its description', () => {
    const r = parseRedirect(
      'ob-console://oauth/callback?error=access_denied&error_description=PSU%20said%20no&state=s',
      'deeplink',
    )
    expect(r).toMatchObject({ error: 'access_denied', errorDescription: 'PSU said no', state: 's' })
  })

  it('prefers the fragment over the query for the same parameter', () => {
    expect(parseRedirect('http://127.0.0.1:1/callback?state=q#code=c&state=f', 'loopback').state).toBe('f')
  })

  it('refuses text that is not a URL, naming the fix', () => {
    expect(() => parseRedirect('code=abc', 'pasted')).toThrow(RedirectParseError)
    try {
      parseRedirect('not a url', 'pasted')
    } catch (err) {
      expect((err as RedirectParseError).fix).toMatch(/whole address/)
    }
  })

  it('refuses a URL without code, id_token or error (a fragment lost on copy)', () => {
    expect(() => parseRedirect('https://tpp.example/cb?state=x', 'pasted')).toThrow(/no authorisation response/)
  })
})

describe('explainAuthorisationError', () => {
  it('explains access_denied as the PSU refusing, with a fix', () => {
    const e = explainAuthorisationError('access_denied', 'no')
    expect(e.cause).toMatch(/PSU refused/)
    expect(e.cause).toContain('"no"')
    expect(e.fix).toMatch(/new consent/)
  })

  it('explains an unknown error code generically but names it', () => {
    expect(explainAuthorisationError('weird_thing').cause).toContain('weird_thing')
  })
})
