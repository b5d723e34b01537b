import { describe, expect, it } from 'vitest'
import { loadPsus } from '../../../../src-main/local-sandbox/psus.ts'
import { fundsLessPayments, hasFundsFor } from '../../../../src-main/local-sandbox/pis/funds/available-funds.ts'
import { seedOpeningBalances } from '../../../../src-main/local-sandbox/pis/funds/seed-available-balance.ts'
import {
  ACSC_AFTER_MS,
  ACSP_AFTER_MS,
  currentPaymentStatus,
  paymentStatusHistory,
} from '../../../../src-main/local-sandbox/pis/payment-status.ts'
import { amountToUnits } from '../../../../src-main/local-sandbox/pis/rules/amount.ts'
import type { NewPayment } from '../../../../src-main/local-sandbox/pis/store/payment-store.ts'
import { PaymentList } from './support/payment-list.ts'

const newPayment = (over: Partial<NewPayment> = {}): NewPayment => ({
  consentId: 'sdp-1',
  clientId: 'c1',
  createdAtMs: 1_000_000,
  initiation: {
    InstructionIdentification: 'I',
    EndToEndIdentification: 'E',
    InstructedAmount: { Amount: '100.00', Currency: 'GBP' },
    CreditorAccount: { SchemeName: 'UK.OBIE.SortCodeAccountNumber', Identification: '08080021325698', Name: 'A' },
  },
  debtorAccountId: 'acc-amelia-current',
  readRefundAccount: false,
  ...over,
})

describe('payment status timeline', () => {
  const p = { ...newPayment(), domesticPaymentId: 'dp-1', paymentTransactionId: 'T' }
  it('RCVD -> ACSP at 2 s -> ACSC at 10 s, with threshold times', () => {
    expect(currentPaymentStatus(p, p.createdAtMs).status).toBe('RCVD')
    expect(currentPaymentStatus(p, p.createdAtMs + ACSP_AFTER_MS - 1).status).toBe('RCVD')
    expect(currentPaymentStatus(p, p.createdAtMs + ACSP_AFTER_MS)).toEqual({
      status: 'ACSP',
      atMs: p.createdAtMs + 2_000,
    })
    expect(paymentStatusHistory(p, p.createdAtMs + 1e9).map((e) => [e.status, e.atMs - p.createdAtMs])).toEqual([
      ['RCVD', 0],
      ['ACSP', 2_000],
      ['ACSC', ACSC_AFTER_MS],
    ])
  })
  it('a rejected payment stays RJCT with its reason', () => {
    const r = { ...p, rejection: { code: 'AM04', description: 'Insufficient funds' } }
    expect(paymentStatusHistory(r, r.createdAtMs + 1e9)).toEqual([
      { status: 'RJCT', atMs: r.createdAtMs, reasonCode: 'AM04', reasonDescription: 'Insufficient funds' },
    ])
  })
})

describe('available funds', () => {
  it('opening balance by account type, less accepted payments (balances that do not show the payments)', async () => {
    const opening = seedOpeningBalances(loadPsus())
    const store = new PaymentList()
    const funds = fundsLessPayments(opening, store)
    expect(opening('acc-amelia-current')).toBe(amountToUnits('2500.00'))
    expect(opening('acc-grace-current')).toBe(amountToUnits('15000.00'))
    expect(opening('acc-rahul-savings')).toBe(amountToUnits('12000.00'))
    expect(opening('acc-grace-card')).toBe(amountToUnits('3000.00'))
    expect(opening('nope')).toBeUndefined()
    store.create(newPayment())
    store.create(newPayment({ rejection: { code: 'AM04', description: 'x' } }))
    expect(await funds('acc-amelia-current')).toBe(amountToUnits('2400.00'))
    expect(await funds('acc-grace-current')).toBe(amountToUnits('15000.00'))
    expect(await hasFundsFor('acc-amelia-current', '2400.00', funds)).toBe(true)
    expect(await hasFundsFor('acc-amelia-current', '2400.01', funds)).toBe(false)
    expect(await hasFundsFor('nope', '1', funds)).toBe(false)
  })
})
