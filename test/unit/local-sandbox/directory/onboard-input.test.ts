import { describe, expect, it } from 'vitest'
import {
  DEFAULT_REDIRECT_URIS,
  OnboardInputError,
  newOrgId,
  newSoftwareId,
  redirectUriProblem,
  validateOnboardInput,
} from '../../../../src-main/local-sandbox/directory/onboard-input.ts'

function errorOf(fn: () => unknown): OnboardInputError {
  try {
    fn()
  } catch (err) {
    if (err instanceof OnboardInputError) return err
    throw err
  }
  throw new Error('expected an OnboardInputError')
}

describe('identifiers', () => {
  it('makes organisation ids in the Open Banking shape (18 characters, 0015800001 then 8 of [0-9A-Z])', () => {
    const ids = new Set(Array.from({ length: 200 }, newOrgId))
    expect(ids.size).toBe(200)
    for (const id of ids) expect(id).toMatch(/^0015800001[0-9A-Z]{8}$/)
  })

  it('makes software ids of 22 Base62 characters', () => {
    const ids = Array.from({ length: 200 }, newSoftwareId)
    expect(new Set(ids).size).toBe(200)
    for (const id of ids) expect(id).toMatch(/^[0-9A-Za-z]{22}$/)
    // Base62 really means both cases and digits appear across many ids.
    const all = ids.join('')
    expect(all).toMatch(/[a-z]/)
    expect(all).toMatch(/[A-Z]/)
    expect(all).toMatch(/[0-9]/)
  })
})

describe('redirectUriProblem', () => {
  it.each([
    'https://127.0.0.1:53682/callback',
    'https://tpp.example.com/cb?x=1',
    'http://127.0.0.1:53682/callback',
    'http://127.1.2.3/cb',
    'http://[::1]:8080/cb',
    'ob-console://oauth/callback',
    'com.example.app:/oauth2redirect',
  ])('accepts %s', (uri) => {
    expect(redirectUriProblem(uri)).toBeUndefined()
  })

  it.each([
    ['https://tpp.example.com/cb#frag', /has a fragment/],
    ['/callback', /not an absolute URI/],
    ['127.0.0.1:53682/callback', /.+/],
    ['http://tpp.example.com/cb', /http to a host that is not a loopback IP/],
    ['http://localhost:8080/cb', /http with the name localhost.*127\.0\.0\.1/],
    ['javascript:alert(1)', /scheme "javascript:"/],
    ['file:///etc/passwd', /scheme "file:"/],
    ['https://exa mple.com/cb', /space, control or other character/],
    ['https://example.com/' + 'a'.repeat(250), /at most 256/],
    ['myapp:', /nothing after it/],
    ['', /empty/],
  ])('refuses %s', (uri, message) => {
    expect(redirectUriProblem(uri)).toMatch(message)
  })

  it('refuses a non-string', () => {
    expect(redirectUriProblem(42)).toMatch(/must be a string/)
  })
})

describe('validateOnboardInput', () => {
  it('applies the defaults: both roles and the console redirect URIs', () => {
    expect(validateOnboardInput({})).toEqual({
      orgName: undefined,
      clientName: undefined,
      roles: ['AISP', 'PISP'],
      redirectUris: [...DEFAULT_REDIRECT_URIS],
    })
  })

  it('keeps given values, trims names, orders roles and drops duplicate redirect URIs', () => {
    const valid = validateOnboardInput({
      orgName: '  Acme  ',
      clientName: 'App',
      roles: ['PISP', 'AISP', 'PISP'],
      redirectUris: ['https://a.example/cb', 'https://a.example/cb'],
    })
    expect(valid).toEqual({
      orgName: 'Acme',
      clientName: 'App',
      roles: ['AISP', 'PISP'],
      redirectUris: ['https://a.example/cb'],
    })
  })

  it.each([
    [[], 'invalid_request', /must be a JSON object/],
    [
      { redirect_uris: ['https://x/cb'] },
      'invalid_request',
      /unknown field "redirect_uris"; the fields are orgName, clientName, roles, redirectUris/,
    ],
    [{ roles: [] }, 'invalid_client_metadata', /roles must be a non-empty array/],
    [
      { roles: ['CBPII'] },
      'invalid_client_metadata',
      /role "CBPII" is not supported; the local sandbox's roles are AISP and PISP/,
    ],
    [{ roles: 'AISP' }, 'invalid_client_metadata', /roles must be a non-empty array/],
    [{ redirectUris: [] }, 'invalid_redirect_uri', /at least one redirect URI/],
    [{ redirectUris: ['http://evil.example/cb'] }, 'invalid_redirect_uri', /not a loopback IP/],
    [
      { redirectUris: Array.from({ length: 21 }, (_, i) => `https://x.example/${i}`) },
      'invalid_redirect_uri',
      /at most 20/,
    ],
    [{ orgName: 'x'.repeat(65) }, 'invalid_request', /orgName is 65 characters; at most 64/],
    [{ clientName: 'x'.repeat(41) }, 'invalid_request', /clientName is 41 characters; at most 40/],
    [{ clientName: '   ' }, 'invalid_request', /clientName is empty/],
    [{ orgName: 7 }, 'invalid_request', /orgName must be a string/],
    [{ orgName: 'a\nb' }, 'invalid_request', /control character/],
  ])('refuses %j with %s', (input, code, message) => {
    const err = errorOf(() => validateOnboardInput(input))
    expect(err.error).toBe(code)
    expect(err.message).toMatch(message)
  })
})
