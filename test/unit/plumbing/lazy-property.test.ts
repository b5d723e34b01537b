import { describe, expect, it } from 'vitest'
import { lazyProperty } from '../../../src-main/plumbing/lazy-property.ts'

describe('lazyProperty', () => {
  it('computes the value on its first read only, then keeps it as a plain property', () => {
    let computed = 0
    const o = lazyProperty({ a: 1 } as { a: number; b?: string }, 'b', () => `b${++computed}`)
    expect(computed).toBe(0)
    expect(Object.keys(o)).toEqual(['a', 'b'])
    expect([o.b, o.b]).toEqual(['b1', 'b1'])
    expect(computed).toBe(1)
    expect(Object.getOwnPropertyDescriptor(o, 'b')).toEqual({
      value: 'b1',
      enumerable: true,
      writable: true,
      configurable: true,
    })
    o.b = 'changed'
    expect(o.b).toBe('changed')
  })

  it('keeps a property’s place when it replaces one, and is read by JSON and structuredClone', () => {
    const o = lazyProperty({ a: 1, b: undefined as number | undefined, c: 3 }, 'b', () => 2)
    expect(JSON.stringify(o)).toBe('{"a":1,"b":2,"c":3}')
    expect(structuredClone(lazyProperty({ x: 0 }, 'x', () => 5))).toEqual({ x: 5 })
  })

  it('lets an error of the computation reach the reader, and tries again on the next read', () => {
    let calls = 0
    const o = lazyProperty({} as { v?: number }, 'v', () => {
      if (++calls === 1) throw new Error('not yet')
      return 7
    })
    expect(() => o.v).toThrow('not yet')
    expect(o.v).toBe(7)
  })
})
