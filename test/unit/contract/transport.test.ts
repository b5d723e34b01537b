import { describe, expect, it } from 'vitest'
import { CALL_NAMES } from '../../../src-main/contract/api.ts'
import { CALL_NAME_PATTERN } from '../../../src-main/contract/transport.ts'

describe('CALL_NAME_PATTERN', () => {
  it('admits every call of the contract (the hosts route only names it admits), o3.* included', () => {
    expect(CALL_NAMES.filter((n) => !CALL_NAME_PATTERN.test(n))).toEqual([])
    expect(CALL_NAME_PATTERN.test('o3.postmanEnvironment')).toBe(true)
  })

  it('refuses anything that is not domain.verb', () => {
    const bad = ['__proto__.x', 'a.b.c', 'app', '.info', 'app.', 'App.info', 'app.in-fo', '3d.x', 'app.info/..']
    for (const name of bad) expect(CALL_NAME_PATTERN.test(name), name).toBe(false)
  })
})
