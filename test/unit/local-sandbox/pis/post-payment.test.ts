import { describe, expect, it } from 'vitest'
import { AisBank } from '../../../../src-main/local-sandbox/ais/ais-bank.ts'
import { startOfUtcDay } from '../../../../src-main/local-sandbox/ais/seed/calendar.ts'
import type { SandboxClock } from '../../../../src-main/local-sandbox/clock.ts'
import { aisAvailableBalances } from '../../../../src-main/local-sandbox/pis/funds/ais-available-balance.ts'
import { fundsLessPayments, hasFundsFor } from '../../../../src-main/local-sandbox/pis/funds/available-funds.ts'
import { seedOpeningBalances } from '../../../../src-main/local-sandbox/pis/funds/seed-available-balance.ts'
import { ACSC_AFTER_MS } from '../../../../src-main/local-sandbox/pis/payment-status.ts'
import {
  paymentLedgerEntry,
  postPayment,
  postStoredPayments,
} from '../../../../src-main/local-sandbox/pis/posting/post-payment.ts'
import { amountToUnits } from '../../../../src-main/local-sandbox/pis/rules/amount.ts'
import type { NewPayment } from '../../../../src-main/local-sandbox/pis/store/payment-store.ts'
import { PaymentList } from './support/payment-list.ts'
import { loadPsus } from '../../../../src-main/local-sandbox/psus.ts'

const psus = loadPsus()
const now = Date.parse('2026-06-10T12:00:00.250Z')
const clock = { nowMs: () => now } as SandboxClock

const newPayment = (over: Partial<NewPayment> = {}, amount = '10.00'): NewPayment => ({
  consentId: 'sdp-1',
  clientId: 'c1',
  createdAtMs: now,
  initiation: {
    InstructionIdentification: 'I',
    EndToEndIdentification: 'E2E-1',
    InstructedAmount: { Amount: amount, Currency: 'GBP' },
    CreditorAccount: {
      SchemeName: 'UK.OBIE.SortCodeAccountNumber',
      Identification: '08080021325698',
      Name: 'ACME Ltd',
    },
    RemittanceInformation: {
      Unstructured: ['Order 4711'],
      Structured: [{ CreditorReferenceInformation: { Code: 'SCOR', Reference: 'ACME-4711' } }],
    },
  },
  debtorAccountId: 'acc-amelia-current',
  readRefundAccount: false,
  ...over,
})

describe('the ledger entry of a payment', () => {
  it('is a Faster Payment out of the InstructedAmount, pending from creation until ACSC', async () => {
    const payment = new PaymentList().create(newPayment({}, '1234.56'))
    expect(paymentLedgerEntry(payment)).toEqual({
      authAt: now,
      bookAt: now + ACSC_AFTER_MS,
      pence: -123_456,
      code: 'FPO',
      btc: { Code: 'ICDT', SubCode: 'DMCT' },
      info: 'ACME LTD ACME-4711',
      reference: payment.paymentTransactionId,
      remittance: 'ACME-4711',
      creditor: { name: 'ACME Ltd', account: '08080021325698' },
    })
  })

  it("takes the reference from Unstructured without a creditor reference, and keeps an IBAN's scheme", async () => {
    const store = new PaymentList()
    const base = newPayment()
    const unstructured = store.create({
      ...base,
      initiation: { ...base.initiation, RemittanceInformation: { Unstructured: ['Invoice 118'] } },
    })
    expect(paymentLedgerEntry(unstructured)).toMatchObject({ info: 'ACME LTD Invoice 118', remittance: 'Invoice 118' })
    const bare = store.create({
      ...base,
      initiation: {
        ...base.initiation,
        RemittanceInformation: undefined,
        CreditorAccount: { SchemeName: 'UK.OBIE.IBAN', Identification: 'GB29NWBK60161331926819', Name: 'Ann' },
      },
    })
    const entry = paymentLedgerEntry(bare)
    expect(entry.info).toBe('ANN')
    expect(entry.remittance).toBeUndefined()
    expect(entry.creditor).toEqual({ name: 'Ann', account: 'GB29NWBK60161331926819', scheme: 'UK.OBIE.IBAN' })
  })

  it('is posted for an accepted payment only, and the ledgers are rebuilt from the store after a restart', async () => {
    const store = new PaymentList()
    const bank = new AisBank(psus, startOfUtcDay(now)).at(now)
    const accepted = store.create(newPayment())
    const rejected = store.create(newPayment({ rejection: { code: 'AM04', description: 'Insufficient funds' } }))
    const savings = store.create(newPayment({ debtorAccountId: 'acc-amelia-savings' }))
    expect(postPayment(bank, accepted)).toBeDefined()
    expect(postPayment(bank, rejected)).toBeUndefined()
    expect(postPayment(bank, savings)).toBeUndefined()
    const ledger = bank.account('acc-amelia-current')!.ledger
    const balances = ledger.entries.map((e) => `${e.reference} ${e.balanceAfter}`)

    // A restart: a new bank on the same anchor, the payments read back from the store.
    const restarted = new AisBank(psus, startOfUtcDay(now)).at(now)
    expect(postStoredPayments(restarted, store.all)).toBe(1)
    expect(
      restarted.account('acc-amelia-current')!.ledger.entries.map((e) => `${e.reference} ${e.balanceAfter}`),
    ).toEqual(balances)
    // Posting again (the payment is already there) changes nothing.
    expect(postStoredPayments(restarted, store.all)).toBe(1)
    expect(restarted.account('acc-amelia-current')!.ledger.entries).toHaveLength(balances.length)
  })
})

describe('funds of an account AIS holds', () => {
  it('take a payment off once: it is in ITAV, not subtracted again', async () => {
    const store = new PaymentList()
    const bank = new AisBank(psus, startOfUtcDay(now)).at(now)
    const funds = aisAvailableBalances(bank, clock, fundsLessPayments(seedOpeningBalances(psus), store))
    const before = (await funds('acc-amelia-current'))!
    postPayment(bank, store.create(newPayment({}, '10.00')))
    expect(await funds('acc-amelia-current')).toBe(before - amountToUnits('10.00'))
  })

  it('savings keep the seed figure less the accepted payments', async () => {
    const store = new PaymentList()
    const bank = new AisBank(psus, startOfUtcDay(now)).at(now)
    const funds = aisAvailableBalances(bank, clock, fundsLessPayments(seedOpeningBalances(psus), store))
    expect(await funds('acc-rahul-savings')).toBe(amountToUnits('12000.00'))
    const p = store.create(newPayment({ debtorAccountId: 'acc-rahul-savings' }, '9000.00'))
    expect(postPayment(bank, p)).toBeUndefined()
    expect(await funds('acc-rahul-savings')).toBe(amountToUnits('3000.00'))
    expect(await hasFundsFor('acc-rahul-savings', '3000.00', funds)).toBe(true)
    expect(await hasFundsFor('acc-rahul-savings', '3000.01', funds)).toBe(false)
  })
})
