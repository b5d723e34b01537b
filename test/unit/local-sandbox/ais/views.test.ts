import { describe, expect, it } from 'vitest'
import { AisBank } from '../../../../src-main/local-sandbox/ais/ais-bank.ts'
import { GrantedPermissions } from '../../../../src-main/local-sandbox/ais/consents/permissions.ts'
import { startOfUtcDay } from '../../../../src-main/local-sandbox/ais/seed/calendar.ts'
import { balanceView } from '../../../../src-main/local-sandbox/ais/views/account-views.ts'
import { maskPan } from '../../../../src-main/local-sandbox/ais/views/format.ts'
import { transactionJson, transactionView } from '../../../../src-main/local-sandbox/ais/views/transaction-view.ts'
import { loadPsus } from '../../../../src-main/local-sandbox/psus.ts'

const now = Date.parse('2026-06-10T12:00:00Z')
const bank = new AisBank(loadPsus(), startOfUtcDay(now)).at(now)
const detail = new GrantedPermissions([
  'ReadTransactionsDetail',
  'ReadTransactionsCredits',
  'ReadTransactionsDebits',
  'ReadPAN',
])
const basic = new GrantedPermissions(['ReadTransactionsBasic', 'ReadTransactionsDebits'])

describe('transaction views', () => {
  const card = bank.account('acc-amelia-card')!
  const entry = card.ledger.entries.find(
    (e) => e.code === 'PURCHASE' && e.bookAt > e.authAt + 3_600_000 && e.authAt > now - 400 * 86_400_000,
  )!
  const whilePending = entry.authAt + 1000
  const onceBooked = entry.bookAt + 1000

  it('changes TransactionId and Status when a pending transaction books, keeping the reference and amount', () => {
    const pending = transactionView(entry, card, detail, whilePending)
    const booked = transactionView(entry, card, detail, onceBooked)
    expect(pending).toMatchObject({ Status: 'PDNG', TransactionMutability: 'Mutable' })
    expect(booked).toMatchObject({ Status: 'BOOK', TransactionMutability: 'Immutable' })
    expect(pending.TransactionId).not.toBe(booked.TransactionId)
    expect(pending.TransactionReference).toBe(booked.TransactionReference)
    expect(pending.Amount).toEqual(booked.Amount)
    expect(pending.BookingDateTime).toBe(booked.BookingDateTime)
    expect(pending.Balance).toBeUndefined()
    expect(booked.Balance).toMatchObject({ Type: 'ITBD' })
  })

  it('leaves Detail fields out with Basic and masks the PAN without ReadPAN', () => {
    const v = transactionView(entry, card, basic, onceBooked)
    for (const field of ['TransactionInformation', 'Balance', 'MerchantDetails', 'CreditorAccount', 'DebtorAccount'])
      expect(v).not.toHaveProperty(field)
    expect((v.CardInstrument as { Identification: string }).Identification).toBe(maskPan('5412750012345678'))
  })

  it('caches the serialised view per variant, equal to the view', () => {
    for (const [p, t] of [
      [detail, whilePending],
      [detail, onceBooked],
      [basic, whilePending],
      [basic, onceBooked],
    ] as const) {
      expect(JSON.parse(transactionJson(entry, card, p, t))).toEqual(transactionView(entry, card, p, t))
      expect(transactionJson(entry, card, p, t)).toBe(transactionJson(entry, card, p, t))
    }
    expect(transactionJson(entry, card, detail, whilePending)).not.toBe(
      transactionJson(entry, card, detail, onceBooked),
    )
  })
})

describe('balance view', () => {
  it("computes ITAV as the booked balance less pending debits, with the card's credit lines", () => {
    const card = bank.account('acc-grace-card')!
    const booked = card.ledger.bookedBalanceAt(now)
    const pendingDebits = card.ledger
      .pendingAt(now)
      .filter((e) => e.pence < 0)
      .reduce((s, e) => s + e.pence, 0)
    const v = balanceView(card, now) as {
      Amount: { Amount: string }
      CreditDebitIndicator: string
      CreditLine: Array<{ Type: string; Amount: { Amount: string } }>
    }
    expect(v.CreditDebitIndicator).toBe('Debit')
    expect(Math.round(Number(v.Amount.Amount) * 100)).toBe(-(booked + pendingDebits))
    expect(v.CreditLine.map((c) => c.Type)).toEqual(['Credit', 'Available'])
    expect(Number(v.CreditLine[1]!.Amount.Amount)).toBeCloseTo(8000 + (booked + pendingDebits) / 100, 2)
  })
})
