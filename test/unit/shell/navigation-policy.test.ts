import { describe, expect, it } from 'vitest'
import {
  authWindowPolicy,
  consoleWindowPolicy,
  denyAllNavigation,
  describeUrl,
  isRedirectTo,
} from '../../../src-main/shell/navigation-policy.ts'

const RENDERER = 'file:///opt/ob-console/resources/app.asar/out/renderer/'

describe('the console window policy', () => {
  const policy = consoleWindowPolicy(RENDERER)
  it('allows its own pages', () => {
    expect(policy(`${RENDERER}index.html`)).toEqual({ action: 'allow' })
    expect(policy(`${RENDERER}index.html#/exchanges`)).toEqual({ action: 'allow' })
  })
  it.each([
    'https://bank.example/authorize',
    'file:///etc/passwd',
    'file:///opt/ob-console/resources/app.asar/out/renderer-evil/index.html',
    'javascript:alert(1)',
    'data:text/html,<script>1</script>',
    'ob-console://oauth/callback#code=abc',
  ])('denies %s', (url) => {
    expect(policy(url).action).toBe('deny')
  })
})

describe('the auth window policy', () => {
  const policy = authWindowPolicy('ob-console://oauth/callback')
  it('intercepts the redirect URI, with the answer in the fragment or the query', () => {
    expect(policy('ob-console://oauth/callback#code=c&id_token=t&state=s')).toEqual({ action: 'intercept' })
    expect(policy('ob-console://oauth/callback?error=access_denied&state=s')).toEqual({ action: 'intercept' })
  })
  it("lets the bank's https pages load, across its hosts, and http on loopback", () => {
    expect(policy('https://auth.bank.example/authorize?request=x')).toEqual({ action: 'allow' })
    expect(policy('https://login.bank.example/psu/login')).toEqual({ action: 'allow' })
    expect(policy('http://127.0.0.1:8443/interaction/abc')).toEqual({ action: 'allow' })
    expect(policy('http://localhost:8443/interaction/abc')).toEqual({ action: 'allow' })
    expect(policy('http://[::1]:8443/interaction/abc')).toEqual({ action: 'allow' })
  })
  it.each([
    ['plain http off loopback', 'http://bank.example/login'],
    ['a file', 'file:///etc/passwd'],
    ['javascript', 'javascript:alert(document.cookie)'],
    ['data', 'data:text/html,hi'],
    ['another custom scheme', 'ms-settings:privacy'],
    ['the console scheme elsewhere', 'ob-console://other/path?code=x'],
    ['credentials in the URL', 'https://user:pass@bank.example/'],
    ['not a URL', 'not a url'],
  ])('denies %s', (_label, url) => {
    expect(policy(url).action).toBe('deny')
  })
  it('compares the redirect URI by scheme, host, port and path, not by prefix', () => {
    const loopback = authWindowPolicy('http://127.0.0.1:53682/callback')
    expect(loopback('http://127.0.0.1:53682/callback#code=1')).toEqual({ action: 'intercept' })
    // A longer path or another port is a page of its own (loopback http: allowed, not intercepted).
    expect(loopback('http://127.0.0.1:53682/callbackX')).toEqual({ action: 'allow' })
    expect(loopback('http://127.0.0.1:53683/callback')).toEqual({ action: 'allow' })
    expect(isRedirectTo('https://tpp.example/cb?code=1', 'https://tpp.example/cb')).toBe(true)
    expect(isRedirectTo('https://tpp.example.evil/cb?code=1', 'https://tpp.example/cb')).toBe(false)
    expect(isRedirectTo('https://u:p@tpp.example/cb', 'https://tpp.example/cb')).toBe(false)
  })
})

describe('denyAllNavigation and describeUrl', () => {
  it('denies everything', () => {
    expect(denyAllNavigation('https://bank.example/').action).toBe('deny')
    expect(denyAllNavigation('file:///x').action).toBe('deny')
  })
  it('never puts a query, fragment or credentials in a log line', () => {
    expect(describeUrl('https://u:p@bank.example:8443/cb?code=SECRET#id_token=SECRET')).toBe(
      'https://bank.example:8443/cb',
    )
    expect(describeUrl('ob-console://oauth/callback#code=SECRET')).toBe('ob-console://oauth/callback')
    expect(describeUrl('javascript:steal("SECRET")')).toBe('javascript:')
    expect(describeUrl('nope?code=SECRET')).toBe('"nope"')
    const reason = authWindowPolicy('ob-console://oauth/callback')('http://evil.example/x?code=SECRET')
    expect(JSON.stringify(reason)).not.toContain('SECRET')
  })
})
