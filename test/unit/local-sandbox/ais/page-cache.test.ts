import { describe, expect, it } from 'vitest'
import type { BankAccount } from '../../../../src-main/local-sandbox/ais/ais-bank.ts'
import {
  nextSecond,
  nextVisibilityChange,
  TransactionPageCache,
} from '../../../../src-main/local-sandbox/ais/routes/page-cache.ts'
import { AccountLedger, type LedgerEntry } from '../../../../src-main/local-sandbox/ais/seed/ledger.ts'

function account(entries: Array<Partial<LedgerEntry> & { authAt: number; bookAt: number }>): BankAccount {
  const ledger = new AccountLedger('acc-test', 0, 0, 'anchor')
  ledger.add(
    entries.map(
      (e, seq) =>
        ({
          seq,
          pence: 100,
          code: 'DEB',
          btc: { Code: 'x', SubCode: 'y' },
          info: '',
          reference: `r${seq}`,
          balanceAfter: 0,
          ...e,
        }) as LedgerEntry,
    ),
  )
  return { ledger } as BankAccount
}

describe('transactions page cache', () => {
  it('nextVisibilityChange: the first authorisation, booking or statement issue after now', () => {
    const acc = account([
      { authAt: 100, bookAt: 100 },
      { authAt: 150, bookAt: 400, statement: { id: 's', reference: 'S', issuedAt: 900 } },
      { authAt: 600, bookAt: 700 },
    ])
    expect(nextVisibilityChange([acc], 120)).toBe(150)
    expect(nextVisibilityChange([acc], 150)).toBe(400)
    expect(nextVisibilityChange([acc], 400)).toBe(600)
    expect(nextVisibilityChange([acc], 700)).toBe(900)
    expect(nextVisibilityChange([acc], 900)).toBe(Infinity)
    expect(nextVisibilityChange([acc, account([{ authAt: 500, bookAt: 500 }])], 400)).toBe(500)
  })

  it('nextSecond: the start of the next second', () => {
    expect(nextSecond(0)).toBe(1000)
    expect(nextSecond(1999)).toBe(2000)
    expect(nextSecond(2000)).toBe(3000)
  })

  it('serves a page only inside its validity interval and while the ledgers keep their revision', () => {
    const acc = account([{ authAt: 1, bookAt: 1 }])
    const cache = new TransactionPageCache()
    const bytes = Buffer.from('{"page":1}')
    cache.set('k', bytes, 100, 200, [acc])
    expect(cache.get('k', 99, [acc])).toBeUndefined()
    cache.set('k', bytes, 100, 200, [acc])
    expect(cache.get('k', 100, [acc])).toBe(bytes)
    expect(cache.get('k', 199, [acc])).toBe(bytes)
    expect(cache.get('k', 200, [acc])).toBeUndefined()
    cache.set('k', bytes, 100, 200, [acc])
    acc.ledger.add([
      {
        seq: 9,
        authAt: 5,
        bookAt: 5,
        pence: 1,
        code: 'DEB',
        btc: { Code: 'x', SubCode: 'y' },
        info: '',
        reference: 'new',
        balanceAfter: 0,
      },
    ])
    expect(cache.get('k', 150, [acc])).toBeUndefined()
    expect(cache.size).toEqual({ pages: 0, bytes: 0 })
    cache.set('never', bytes, 100, 100, [acc])
    expect(cache.size.pages).toBe(0)
  })

  it('drops the least recently used pages past its byte budget', () => {
    const acc = account([{ authAt: 1, bookAt: 1 }])
    const cache = new TransactionPageCache(25)
    const page = (c: string) => Buffer.alloc(10, c)
    cache.set('a', page('a'), 0, 10, [acc])
    cache.set('b', page('b'), 0, 10, [acc])
    expect(cache.get('a', 1, [acc])).toBeDefined()
    cache.set('c', page('c'), 0, 10, [acc])
    expect(cache.get('b', 1, [acc])).toBeUndefined()
    expect(cache.get('a', 1, [acc])).toBeDefined()
    expect(cache.get('c', 1, [acc])).toBeDefined()
    expect(cache.size).toEqual({ pages: 2, bytes: 20 })
    cache.set('huge', Buffer.alloc(26), 0, 10, [acc])
    expect(cache.get('huge', 1, [acc])).toBeUndefined()
  })
})
