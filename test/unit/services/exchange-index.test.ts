import { describe, expect, it } from 'vitest'
import type { ExchangeDto } from '../../../src-main/contract/exchange.ts'
import type { ExchangeHead } from '../../../src-main/http/exchange-log.ts'
import { ExchangeIndex, pathOf } from '../../../src-main/services/exchange-index.ts'

const head = (id: string, status?: number): ExchangeHead => ({
  id,
  startedAt: '2026-01-01T00:00:00.000Z',
  method: 'GET',
  url: `https://bank.example/open-banking/v4.0/aisp/accounts/${id}`,
  requestHeaders: [],
  totalMs: 1,
  responseSize: 0,
  ...(status !== undefined ? { status } : {}),
})

describe("pathOf (the list row's path)", () => {
  it('is the path of an absolute URL as sent, without query or fragment', () => {
    expect(pathOf('https://bank.example:8443/open-banking/v4.0/aisp/accounts/a%2Fb/transactions?page=2#x')).toBe(
      '/open-banking/v4.0/aisp/accounts/a%2Fb/transactions',
    )
    expect(pathOf('https://127.0.0.1:4443/auth?client_id=c&request=eyJ.eyJ.sig')).toBe('/auth')
    expect(pathOf('https://[::1]:4443/token')).toBe('/token')
  })
  it('is / for a URL with no path, and the string itself for something that is not an absolute URL', () => {
    expect(pathOf('https://bank.example')).toBe('/')
    expect(pathOf('https://bank.example?x=1')).toBe('/')
    expect(pathOf('https://bank.example#frag')).toBe('/')
    expect(pathOf('not a url')).toBe('not a url')
    expect(pathOf('')).toBe('')
  })
})

describe('ExchangeIndex', () => {
  it('keeps the newest rows up to its capacity, and forgets the failed step of a dropped one', () => {
    const index = new ExchangeIndex(2)
    index.record(head('a', 200))
    index.noteFailedStep('a', { flowId: 'f', step: 'consent', code: 'INVALID_INPUT', what: 'x' })
    index.record(head('b', 200))
    index.record(head('c', 500))
    expect(index.list({}).items.map((s) => s.id)).toEqual(['b', 'c'])
    expect(index.has('a')).toBe(false)
    expect(index.withFailedStep({ id: 'a' } as ExchangeDto).failedStep).toBeUndefined()
  })

  it('marks an exchange claimed before it is recorded, and again (telling listeners) one claimed after', () => {
    const index = new ExchangeIndex(10)
    const heard: string[] = []
    index.onRecord((s) => heard.push(`${s.id}:${s.byConsole === true}`))
    index.claim('a', 'flow-1', true)
    index.record(head('a', 200))
    index.record(head('b'))
    index.claim('b', undefined, true)
    expect(heard).toEqual(['a:true', 'b:false', 'b:true'])
    expect(index.get('a')?.flowId).toBe('flow-1')
    expect(index.list({ hideByConsole: true })).toEqual({ total: 0, items: [], hiddenByConsole: 2 })
  })

  it('filters by status class, by error, and by path or label, case-insensitively', () => {
    const index = new ExchangeIndex(10)
    index.record(head('ok', 200))
    index.record(head('bad', 404))
    index.record(head('Gone'))
    expect(index.idsMatching({ status: '4xx' })).toEqual(['bad'])
    expect(index.idsMatching({ status: 'error' })).toEqual(['Gone'])
    expect(index.idsMatching({ pathContains: 'GONE' })).toEqual(['Gone'])
    expect(index.list({ offset: 1, limit: 1 })).toMatchObject({ total: 3, items: [{ id: 'bad' }] })
  })
})
