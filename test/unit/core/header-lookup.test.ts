import { describe, expect, it } from 'vitest'
import { headerValue, headerValues } from '../../../src-main/core/header-lookup.ts'

describe('header lookup', () => {
  const headers: Array<[string, string]> = [
    ['Content-Type', 'application/json'],
    ['X-Fapi-Interaction-Id', 'a'],
    ['content-type', 'text/html'],
  ]

  it('finds a header whatever the case of its name or of the name asked for', () => {
    expect(headerValue(headers, 'content-type')).toBe('application/json')
    expect(headerValue(headers, 'x-fapi-interaction-id')).toBe('a')
    expect(headerValue(headers, 'X-FAPI-INTERACTION-ID')).toBe('a')
  })

  it('gives every value of a repeated header, in order, and nothing for an absent one or list', () => {
    expect(headerValues(headers, 'CONTENT-TYPE')).toEqual(['application/json', 'text/html'])
    expect(headerValue(headers, 'location')).toBeUndefined()
    expect(headerValues(undefined, 'location')).toEqual([])
    expect(headerValue(undefined, 'location')).toBeUndefined()
  })
})
