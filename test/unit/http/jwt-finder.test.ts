import { describe, expect, it } from 'vitest'
import { decodeFound, findJwts } from '../../../src-main/http/jwt-finder.ts'

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url')
const jwt = (claims: Record<string, unknown>, alg = 'PS256') => `${b64({ alg })}.${b64(claims)}.${alg === 'none' ? '' : 'c2ln'}`

describe('findJwts', () => {
  it('finds JWTs wherever an Open Banking exchange carries them', () => {
    const assertion = jwt({ iss: 'client' })
    const requestObject = jwt({ aud: 'issuer' }, 'none')
    const idToken = jwt({ nonce: 'n' })
    const detached = `${b64({ alg: 'PS256', crit: [] })}..c2ln`
    const found = findJwts({
      url: `https://auth/authorize?client_id=c&request=${requestObject}`,
      requestHeaders: [['authorization', `Bearer ${jwt({ scope: 'accounts' })}`], ['x-jws-signature', detached]],
      requestBody: `grant_type=client_credentials&client_assertion=${assertion}`,
      requestContentType: 'application/x-www-form-urlencoded',
      responseHeaders: [['location', `https://tpp/cb#code=abc&id_token=${idToken}&state=s`]],
      responseBody: JSON.stringify({ access_token: 'opaque', id_token: idToken, nested: { software_statement: jwt({ software_id: 's' }) } }),
      responseContentType: 'application/json',
    })
    expect(found.map((f) => f.location)).toEqual([
      'request query request', 'request header authorization', 'request header x-jws-signature', 'response location fragment id_token',
      'request body client_assertion', 'response body id_token', 'response body nested.software_statement',
    ])
  })

  it('finds a JWT that is the whole body (registration request)', () => {
    const reg = jwt({ iss: 'software' })
    expect(findJwts({ url: 'https://bank/register', requestHeaders: [], requestBody: reg, requestContentType: 'application/jwt' })).toEqual([{ location: 'request body', compact: reg, name: 'body' }])
  })

  it('decodes what it found; a detached JWS has a header only; garbage reports its error', () => {
    const d = decodeFound({ location: 'l', compact: jwt({ exp: 1767225600 }), name: 'x' }, 'shown')
    expect(d).toMatchObject({ location: 'l', compact: 'shown', signature: 'present', times: { exp: '2026-01-01T00:00:00.000Z' } })
    expect(decodeFound({ location: 'h', compact: `${b64({ alg: 'PS256' })}..c2ln`, name: 'x' }, 'x').signature).toBe('detached')
    expect(decodeFound({ location: 'h', compact: 'a.b', name: 'x' }, 'a.b').error).toMatch(/three parts/)
  })
})
