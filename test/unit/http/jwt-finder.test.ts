import { describe, expect, it } from 'vitest'
import { decodeFound, findJwts, jsonMayHoldJwt } from '../../../src-main/http/jwt-finder.ts'

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url')
const jwt = (claims: Record<string, unknown>, alg = 'PS256') =>
  `${b64({ alg })}.${b64(claims)}.${alg === 'none' ? '' : 'c2ln'}`

describe('findJwts', () => {
  it('finds JWTs wherever an Open Banking exchange carries them', () => {
    const assertion = jwt({ iss: 'client' })
    const requestObject = jwt({ aud: 'issuer' }, 'none')
    const idToken = jwt({ nonce: 'n' })
    const detached = `${b64({ alg: 'PS256', crit: [] })}..c2ln`
    const found = findJwts({
      url: `https://auth/authorize?client_id=c&request=${requestObject}`,
      requestHeaders: [
        ['authorization', `Bearer ${jwt({ scope: 'accounts' })}`],
        ['x-jws-signature', detached],
      ],
      requestBody: `grant_type=client_credentials&client_assertion=${assertion}`,
      requestContentType: 'application/x-www-form-urlencoded',
      responseHeaders: [['location', `https://tpp/cb#code=abc&id_token=${idToken}&state=s`]],
      responseBody: JSON.stringify({
        access_token: 'opaque',
        id_token: idToken,
        nested: { software_statement: jwt({ software_id: 's' }) },
      }),
      responseContentType: 'application/json',
    })
    expect(found.map((f) => f.location)).toEqual([
      'request query request',
      'request header authorization',
      'request header x-jws-signature',
      'response location fragment id_token',
      'request body client_assertion',
      'response body id_token',
      'response body nested.software_statement',
    ])
  })

  it('finds a JWT that is the whole body (registration request)', () => {
    const reg = jwt({ iss: 'software' })
    expect(
      findJwts({
        url: 'https://bank/register',
        requestHeaders: [],
        requestBody: reg,
        requestContentType: 'application/jwt',
      }),
    ).toEqual([{ location: 'request body', compact: reg, name: 'body' }])
  })

  it('decodes what it found; a detached JWS has a header only; garbage reports its error', () => {
    const d = decodeFound({ location: 'l', compact: jwt({ exp: 1767225600 }), name: 'x' }, 'shown')
    expect(d).toMatchObject({
      location: 'l',
      compact: 'shown',
      signature: 'present',
      times: { exp: '2026-01-01T00:00:00.000Z' },
    })
    expect(decodeFound({ location: 'h', compact: `${b64({ alg: 'PS256' })}..c2ln`, name: 'x' }, 'x').signature).toBe(
      'detached',
    )
    expect(decodeFound({ location: 'h', compact: 'a.b', name: 'x' }, 'a.b').error).toMatch(/three parts/)
  })

  it('scans a large JSON body for the compact shape and parses it only when a JWT is there, with the same names', () => {
    const rows = Array.from({ length: 3000 }, (_, i) => ({
      TransactionId: `tx-${i}`,
      Amount: `${i}.50`,
      Host: '127.0.0.1',
      Ref: 'abc.def.ghi',
      Links: { Self: `https://bank.example/tx.json?page=${i}` },
    }))
    const list = JSON.stringify({ Data: { Transaction: rows } })
    // Dotted strings that are not JWTs (amounts, addresses, a compact shape whose header is not JSON).
    expect(jsonMayHoldJwt(list)).toBe(false)
    expect(
      findJwts({
        url: 'https://bank/tx',
        requestHeaders: [],
        responseBody: list,
        responseContentType: 'application/json',
      }),
    ).toEqual([])
    const token = jwt({ sub: 'x' })
    const withTokens = JSON.stringify({ Data: { Transaction: rows.slice(0, 5), tokens: [token], id_token: token } })
    expect(jsonMayHoldJwt(withTokens)).toBe(true)
    expect(
      findJwts({
        url: 'https://bank/tx',
        requestHeaders: [],
        responseBody: withTokens,
        responseContentType: 'application/json',
      }),
    ).toEqual([
      { location: 'response body Data.tokens[0]', compact: token, name: 'tokens[0]' },
      { location: 'response body Data.id_token', compact: token, name: 'id_token' },
    ])
    // A JWT written with \\u escapes is one to JSON.parse: the scan does not miss it.
    const escaped = `{"id_token":"\\u0065${token.slice(1)}"}`
    expect(jsonMayHoldJwt(escaped)).toBe(true)
    expect(
      findJwts({
        url: 'https://bank/t',
        requestHeaders: [],
        responseBody: escaped,
        responseContentType: 'application/json',
      }),
    ).toEqual([{ location: 'response body id_token', compact: token, name: 'id_token' }])
    // A string that only ends like one (more dots before) is not a JWT.
    expect(jsonMayHoldJwt(`{"a":"x.${token}"}`)).toBe(false)
  })
})

describe('findJwts inside a JWT', () => {
  it('finds the software statement inside a registration JWT, named after the JWT that holds it', () => {
    const ssa = jwt({ software_id: 's', org_id: 'o' })
    const reg = jwt({ iss: 's', software_statement: ssa })
    expect(
      findJwts({
        url: 'https://bank/register',
        requestHeaders: [],
        requestBody: reg,
        requestContentType: 'application/jwt',
      }),
    ).toEqual([
      { location: 'request body', compact: reg, name: 'body' },
      { location: 'request body › software_statement', compact: ssa, name: 'software_statement' },
    ])
  })
})
