import { describe, expect, it } from 'vitest'
import { jsonMember, jsonObject, jwksOf, parseJsonBody } from '../../../src-main/http/json-body.ts'

describe('a JSON body read once, leniently where a step does not rely on it', () => {
  it('parses only a body declared JSON that parses', () => {
    expect(parseJsonBody('{"a":1}', 'application/json; charset=utf-8')).toEqual({ a: 1 })
    expect(parseJsonBody('{"a":1}', 'application/jwk-set+json')).toEqual({ a: 1 })
    expect(parseJsonBody('{"a":1}', 'text/html')).toBeUndefined()
    expect(parseJsonBody('{"a":', 'application/json')).toBeUndefined()
    expect(parseJsonBody('', 'application/json')).toBeUndefined()
    expect(parseJsonBody('null', 'application/json')).toBeNull()
  })

  it('reads a member along a path, undefined where a step of it is missing or not an object', () => {
    const body = { Data: { Status: 'AUTH', List: [1] } }
    expect(jsonMember(body, 'Data', 'Status')).toBe('AUTH')
    expect(jsonMember(body, 'Data', 'Missing', 'Status')).toBeUndefined()
    expect(jsonMember(body, 'Data', 'List', '0')).toBeUndefined()
    expect(jsonMember('text', 'Data')).toBeUndefined()
    expect(jsonMember(null, 'Data')).toBeUndefined()
  })

  it('gives an object to read members from whatever was parsed', () => {
    expect(jsonObject({ a: 1 })).toEqual({ a: 1 })
    for (const v of [undefined, null, 'x', 3, [1, 2]]) expect(jsonObject(v)).toEqual({})
  })

  it('takes a JWKS only from a 200 whose body has a keys list', () => {
    const keys = { keys: [{ kty: 'EC', crv: 'P-256', x: 'x', y: 'y' }] }
    expect(jwksOf({ status: 200, json: keys })).toBe(keys)
    expect(jwksOf({ status: 200, json: { keys: {} } })).toBeUndefined()
    expect(jwksOf({ status: 404, json: keys })).toBeUndefined()
    expect(jwksOf({ status: 200, json: undefined })).toBeUndefined()
  })
})
