import { describe, expect, it } from 'vitest'
import { AisBank } from '../../../../src-main/local-sandbox/ais/ais-bank.ts'
import { GrantedPermissions } from '../../../../src-main/local-sandbox/ais/consents/permissions.ts'
import { TransactionPageCache } from '../../../../src-main/local-sandbox/ais/routes/page-cache.ts'
import { DAY_MS, startOfUtcDay } from '../../../../src-main/local-sandbox/ais/seed/calendar.ts'
import {
  AccountLedger,
  POSTED_SEQ_BASE,
  transactionId,
  type LedgerEntry,
  type PostedEntry,
} from '../../../../src-main/local-sandbox/ais/seed/ledger.ts'
import { balanceView } from '../../../../src-main/local-sandbox/ais/views/account-views.ts'
import { transactionJson } from '../../../../src-main/local-sandbox/ais/views/transaction-view.ts'
import { loadPsus } from '../../../../src-main/local-sandbox/psus.ts'

function generated(seq: number, bookAt: number, pence: number, authAt = bookAt): LedgerEntry {
  return {
    seq,
    authAt,
    bookAt,
    pence,
    code: 'DEB',
    btc: { Code: 'CCRD', SubCode: 'POSD' },
    info: `e${seq}`,
    reference: `r${seq}`,
    balanceAfter: 0,
  }
}

function payment(at: number, pence: number, reference = `SBX${at}`): PostedEntry {
  return {
    authAt: at,
    bookAt: at + 10_000,
    pence,
    code: 'FPO',
    btc: { Code: 'ICDT', SubCode: 'DMCT' },
    info: 'ACME LTD REF',
    reference,
    creditor: { name: 'ACME Ltd', account: '08080021325698' },
  }
}

const balances = (l: AccountLedger) => l.entries.map((e) => e.balanceAfter)

describe('posting a transaction on a ledger', () => {
  it('places it in booking order and recomputes only the running balances after it', () => {
    const l = new AccountLedger('acc-x', 10_000, 0, 'anchor')
    l.add([generated(0, 100, -1_000), generated(1, 200, -2_000), generated(2, 30_000, 500)])
    expect(balances(l)).toEqual([9_000, 7_000, 7_500])
    const before = l.revision
    const e = l.post('dp-1', payment(150, -1_234))
    expect(l.entries.map((x) => x.info)).toEqual(['e0', 'e1', 'ACME LTD REF', 'e2'])
    expect(balances(l)).toEqual([9_000, 7_000, 7_000 - 1_234, 7_500 - 1_234])
    expect(e.seq).toBeGreaterThanOrEqual(POSTED_SEQ_BASE)
    expect(l.revision).not.toBe(before)
    // Booked at 10,150: pending before, counted in the booked balance from then on.
    expect(l.pendingAt(10_149)).toEqual([e])
    expect(l.bookedBalanceAt(10_149)).toBe(7_000)
    expect(l.bookedBalanceAt(10_150)).toBe(7_000 - 1_234)
    expect(l.pendingAt(10_150)).toEqual([])
  })

  it('posts once per key; a later generated batch keeps the posted entry in every balance after it', () => {
    const l = new AccountLedger('acc-x', 0, 0, 'anchor')
    l.add([generated(0, 100, 1_000)])
    const first = l.post('dp-1', payment(200, -300))
    const revision = l.revision
    expect(l.post('dp-1', payment(200, -300))).toBe(first)
    expect(l.revision).toBe(revision)
    expect(l.entries).toHaveLength(2)
    expect(l.hasPosted('dp-1')).toBe(true)
    l.add([generated(1, 50_000, -100), generated(2, 60_000, 50)])
    expect(balances(l)).toEqual([1_000, 700, 600, 650])
  })

  it('keeps payments booking at the same moment in posting order, after a generated entry of that moment', () => {
    const l = new AccountLedger('acc-x', 0, 0, 'anchor')
    l.add([generated(0, 10_100, -1)])
    l.post('dp-a', payment(100, -10, 'A'))
    l.post('dp-b', payment(100, -20, 'B'))
    expect(l.entries.map((e) => e.reference)).toEqual(['r0', 'A', 'B'])
    expect(balances(l)).toEqual([-1, -11, -31])
  })

  it('drops the cached views of every entry whose running balance changed, and only those', () => {
    const l = new AccountLedger('acc-x', 0, 0, 'anchor')
    l.add([generated(0, 100, 1_000), generated(1, 50_000, -100)])
    l.entries[0]!.viewCache = ['cached']
    l.entries[1]!.viewCache = ['cached']
    l.post('dp-1', payment(200, -300))
    expect(l.entries[0]!.viewCache).toEqual(['cached'])
    expect(l.entries[2]!.viewCache).toBeUndefined()
    expect(l.entries[2]!.balanceAfter).toBe(600)
  })

  it('gives a posted entry its own TransactionIds, from its key: one pending, another booked', () => {
    const a = new AccountLedger('acc-x', 0, 0, 'anchor')
    const b = new AccountLedger('acc-x', 0, 0, 'anchor')
    const ea = a.post('dp-1', payment(100, -1))
    const eb = b.post('dp-1', payment(100, -1))
    const other = a.post('dp-2', payment(100, -1))
    expect(transactionId(a, ea, true)).toMatch(/^ptx-[0-9A-Z]{14}$/)
    expect(transactionId(a, ea, false)).toMatch(/^tx-[0-9A-Z]{14}$/)
    expect(transactionId(a, ea, true).slice(4)).not.toBe(transactionId(a, ea, false).slice(3))
    expect(transactionId(a, ea, false)).toBe(transactionId(b, eb, false))
    expect(transactionId(a, other, false)).not.toBe(transactionId(a, ea, false))
  })
})

describe('a payment posted on the bank', () => {
  const psus = loadPsus()
  const now = Date.parse('2026-06-10T12:00:00.250Z')

  it('changes no generated entry, only the balances after it; ITAV drops by the amount at once', () => {
    const plain = new AisBank(psus, startOfUtcDay(now)).at(now)
    const paid = new AisBank(psus, startOfUtcDay(now)).at(now)
    const acc = paid.account('acc-amelia-current')!
    const signed = (b: AisBank, t = now) => {
      const v = balanceView(b.account('acc-amelia-current')!, t)
      return (
        Math.round(Number((v.Amount as { Amount: string }).Amount) * 100) *
        (v.CreditDebitIndicator === 'Debit' ? -1 : 1)
      )
    }
    expect(signed(paid)).toBe(signed(plain))
    const entry = paid.post('acc-amelia-current', 'dp-1', payment(now, -1_000))!
    expect(entry).toBeDefined()
    expect(signed(paid)).toBe(signed(plain) - 1_000)
    const generatedOnly = acc.ledger.entries.filter((e) => e !== entry)
    const ref = plain.account('acc-amelia-current')!.ledger.entries
    expect(generatedOnly.map((e) => `${e.seq} ${e.reference} ${e.pence}`)).toEqual(
      ref.map((e) => `${e.seq} ${e.reference} ${e.pence}`),
    )
    const at = acc.ledger.entries.indexOf(entry)
    for (let i = 0; i < ref.length; i++) {
      const shift = i >= at ? -1_000 : 0
      expect(generatedOnly[i]!.balanceAfter - ref[i]!.balanceAfter, `entry ${i}`).toBe(shift)
    }
    // Pending until it books (ACSC, 10 s later): ITAV counts it as a pending debit, then as booked.
    expect(acc.ledger.pendingAt(now)).toContain(entry)
    expect(signed(paid, now + 10_000) - signed(plain, now + 10_000)).toBe(-1_000)
    expect(acc.ledger.pendingAt(now + 10_000)).not.toContain(entry)
    paid.at(now + 20 * DAY_MS)
    plain.at(now + 20 * DAY_MS)
    const later = now + 20 * DAY_MS
    const booked = (b: AisBank) => b.account('acc-amelia-current')!.ledger.bookedBalanceAt(later)
    expect(booked(paid)).toBe(booked(plain) - 1_000)
  })

  it('posts nothing on an account AIS does not hold, or before the first day of the history', () => {
    const bank = new AisBank(psus, startOfUtcDay(now)).at(now)
    expect(bank.post('acc-amelia-savings', 'dp-1', payment(now, -1_000))).toBeUndefined()
    const ledger = bank.account('acc-amelia-current')!.ledger
    const size = ledger.entries.length
    expect(bank.post('acc-amelia-current', 'dp-2', payment(ledger.startsAt - 1, -1_000))).toBeUndefined()
    expect(ledger.entries).toHaveLength(size)
  })

  it('serves no stale transactions page or cached view once a payment is posted', () => {
    const bank = new AisBank(psus, startOfUtcDay(now)).at(now)
    const acc = bank.account('acc-amelia-current')!
    const cache = new TransactionPageCache()
    cache.set('page', Buffer.from('old'), now, now + DAY_MS, [acc])
    expect(cache.get('page', now + 1, [acc])).toBeDefined()
    const detail = new GrantedPermissions(['ReadTransactionsDetail', 'ReadTransactionsDebits'])
    const later = acc.ledger.entries.find((e) => e.bookAt > now + 60_000 && e.authAt <= now + DAY_MS)!
    const before = JSON.parse(transactionJson(later, acc, detail, later.bookAt))
    bank.post('acc-amelia-current', 'dp-1', payment(now, -1_000))
    expect(cache.get('page', now + 1, [acc])).toBeUndefined()
    const after = JSON.parse(transactionJson(later, acc, detail, later.bookAt))
    const pence = (v: { Balance: { Amount: { Amount: string }; CreditDebitIndicator: string } }) =>
      Math.round(Number(v.Balance.Amount.Amount) * 100) * (v.Balance.CreditDebitIndicator === 'Debit' ? -1 : 1)
    expect(pence(after)).toBe(pence(before) - 1_000)
  })
})
