import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { SandboxClock } from '../../../../src-main/local-sandbox/clock.ts'
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
import {
  IDEMPOTENCY_WINDOW_MS,
  IdempotencyStore,
} from '../../../../src-main/local-sandbox/pis/store/idempotency-store.ts'
import { PaymentStore, type NewPayment } from '../../../../src-main/local-sandbox/pis/store/payment-store.ts'

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

describe('PIS stores', () => {
  let dir: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pis-unit-'))
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  it('payments persist and are found by id, consent and account', () => {
    const store = new PaymentStore(dir)
    const p = store.create(newPayment())
    expect(p.domesticPaymentId).toMatch(/^dp-[0-9a-f-]{36}$/)
    expect(p.paymentTransactionId).toMatch(/^SBX[0-9A-F]{20}$/)
    const reopened = new PaymentStore(dir)
    expect(reopened.get(p.domesticPaymentId)).toEqual(p)
    expect(reopened.byConsent('sdp-1')?.domesticPaymentId).toBe(p.domesticPaymentId)
    expect(reopened.fromAccount('acc-amelia-current')).toHaveLength(1)
    expect(reopened.byConsent('sdp-2')).toBeUndefined()
  })

  it('idempotency keys: replay, conflict, per client and endpoint, expiry after 24 h, persisted', () => {
    const clock = new SandboxClock()
    const store = new IdempotencyStore(dir, clock)
    const body = Buffer.from('{"a":1}')
    expect(store.lookup('c1', 'domestic-payments', 'k', body)).toEqual({ kind: 'new' })
    store.remember('c1', 'domestic-payments', 'k', body, 'dp-1')
    expect(store.lookup('c1', 'domestic-payments', 'k', Buffer.from('{"a":1}'))).toEqual({
      kind: 'replay',
      resourceId: 'dp-1',
    })
    expect(store.lookup('c1', 'domestic-payments', 'k', Buffer.from('{"a": 1}'))).toMatchObject({
      kind: 'conflict',
      resourceId: 'dp-1',
    })
    expect(store.lookup('c2', 'domestic-payments', 'k', body)).toEqual({ kind: 'new' })
    expect(store.lookup('c1', 'domestic-payment-consents', 'k', body)).toEqual({ kind: 'new' })
    expect(new IdempotencyStore(dir, clock).lookup('c1', 'domestic-payments', 'k', body).kind).toBe('replay')
    clock.advance(IDEMPOTENCY_WINDOW_MS)
    expect(store.lookup('c1', 'domestic-payments', 'k', body)).toEqual({ kind: 'new' })
  })
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
  let dir: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pis-funds-'))
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  it('opening balance by account type, less accepted payments (balances that do not show the payments)', () => {
    const opening = seedOpeningBalances(loadPsus())
    const store = new PaymentStore(dir)
    const funds = fundsLessPayments(opening, store)
    expect(opening('acc-amelia-current')).toBe(amountToUnits('2500.00'))
    expect(opening('acc-grace-current')).toBe(amountToUnits('15000.00'))
    expect(opening('acc-rahul-savings')).toBe(amountToUnits('12000.00'))
    expect(opening('acc-grace-card')).toBe(amountToUnits('3000.00'))
    expect(opening('nope')).toBeUndefined()
    store.create(newPayment())
    store.create(newPayment({ rejection: { code: 'AM04', description: 'x' } }))
    expect(funds('acc-amelia-current')).toBe(amountToUnits('2400.00'))
    expect(funds('acc-grace-current')).toBe(amountToUnits('15000.00'))
    expect(hasFundsFor('acc-amelia-current', '2400.00', funds)).toBe(true)
    expect(hasFundsFor('acc-amelia-current', '2400.01', funds)).toBe(false)
    expect(hasFundsFor('nope', '1', funds)).toBe(false)
  })
})
