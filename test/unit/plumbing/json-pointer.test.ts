import { describe, expect, it } from 'vitest'
import type { ErrorObject } from 'ajv'
import {
  describeValue,
  errorMember,
  errorPointer,
  toObPath,
  valueAt,
  VALUE_MAX,
} from '../../../src-main/plumbing/json-pointer.ts'

describe('JSON pointers read as OB paths and as values', () => {
  it('a pointer as the OB JSON path, escapes undone; the root is empty', () => {
    expect(toObPath('/Data/Account/0/OpeningDate')).toBe('Data.Account[0].OpeningDate')
    expect(toObPath('/Data/Account/0/x~1y~0z')).toBe('Data.Account[0].x/y~z')
    expect(toObPath('/Data/Transaction/0')).toBe('Data.Transaction[0]')
    expect(toObPath('')).toBe('')
  })

  it("an ajv error's pointer: the member missing or not in the schema appended, escaped; else its instance", () => {
    const error = (keyword: string, instancePath: string, params: Record<string, unknown>) =>
      ({ keyword, instancePath, params, schemaPath: '#' }) as ErrorObject
    const missing = error('required', '/Data/Initiation', { missingProperty: 'InstructedAmount' })
    expect(errorMember(missing)).toBe('InstructedAmount')
    expect(toObPath(errorPointer(missing))).toBe('Data.Initiation.InstructedAmount')
    expect(toObPath(errorPointer(error('required', '', { missingProperty: 'Risk' })))).toBe('Risk')
    const extra = error('additionalProperties', '/Data', { additionalProperty: 'a/b~c' })
    expect(errorMember(extra)).toBe('a/b~c')
    expect(errorPointer(extra)).toBe('/Data/a~1b~0c')
    expect(toObPath(errorPointer(extra))).toBe('Data.a/b~c')
    const type = error('type', '/Data/Amount', { type: 'string' })
    expect(errorMember(type)).toBeUndefined()
    expect(errorPointer(type)).toBe('/Data/Amount')
  })

  it('the value a pointer names, undefined past a missing member or a scalar', () => {
    const body = { Data: { Account: [{ AccountId: 'a-1', 'x/y': 1 }] } }
    expect(valueAt(body, '/Data/Account/0/AccountId')).toBe('a-1')
    expect(valueAt(body, '/Data/Account/0/x~1y')).toBe(1)
    expect(valueAt(body, '')).toBe(body)
    expect(valueAt(body, '/Data/Missing/0')).toBeUndefined()
    expect(valueAt(body, '/Data/Account/0/AccountId/length')).toBeUndefined()
    expect(valueAt(null, '/Data')).toBeUndefined()
  })

  it('the short form of a value a message shows: JSON cut at 80 characters, a list or object by kind and size', () => {
    expect([null, true, 4.5, '1,00', undefined].map(describeValue)).toEqual([
      'null',
      'true',
      '4.5',
      '"1,00"',
      'undefined',
    ])
    expect(describeValue([1, 2, 3])).toBe('an array of 3')
    expect(describeValue({ Amount: '1', Currency: 'GBP' })).toBe('an object with 2 members')
    const long = describeValue('x'.repeat(200))
    expect(long).toHaveLength(VALUE_MAX)
    expect(long.endsWith('…')).toBe(true)
    expect(describeValue('x'.repeat(VALUE_MAX - 2))).toBe(`"${'x'.repeat(VALUE_MAX - 2)}"`)
  })
})
