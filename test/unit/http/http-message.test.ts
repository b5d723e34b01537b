import { describe, expect, it } from 'vitest'
import { bodyBytes, headerPairs, makeResponse, responseHeaderPairs } from '../../../src-main/http/http-message.ts'

describe('http-message', () => {
  it('turns request headers of either shape into pairs, in order', () => {
    expect(headerPairs({ a: '1', b: '2' })).toEqual([
      ['a', '1'],
      ['b', '2'],
    ])
    expect(
      headerPairs([
        ['x', '1'],
        ['x', '2'],
      ]),
    ).toEqual([
      ['x', '1'],
      ['x', '2'],
    ])
    expect(headerPairs(undefined)).toEqual([])
  })

  it('sends a copy of the body bytes', () => {
    const bytes = new Uint8Array([1, 2, 3])
    const sent = bodyBytes({ method: 'POST', url: 'https://x', body: bytes })!
    bytes[0] = 9
    expect([...sent]).toEqual([1, 2, 3])
    expect(bodyBytes({ method: 'POST', url: 'https://x', body: 'é' })!.length).toBe(2)
    expect(bodyBytes({ method: 'GET', url: 'https://x' })).toBeUndefined()
  })

  it('repeats a header received several times and drops absent ones', () => {
    expect(responseHeaderPairs({ 'set-cookie': ['a', 'b'], x: '1', gone: undefined })).toEqual([
      ['set-cookie', 'a'],
      ['set-cookie', 'b'],
      ['x', '1'],
    ])
  })

  it('reads a header by any case, the body as text and JSON', () => {
    const res = makeResponse(201, [['Content-Type', 'application/json']], Buffer.from('{"a":1}'), 'ex-1', 'Created')
    expect(res.header('content-type')).toBe('application/json')
    expect(res.header('missing')).toBeUndefined()
    expect(res.json()).toEqual({ a: 1 })
    expect(res.text()).toBe('{"a":1}')
    expect([res.exchangeId, res.statusText]).toEqual(['ex-1', 'Created'])
  })
})
