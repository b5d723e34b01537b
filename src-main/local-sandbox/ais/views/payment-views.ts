import type {
  OBBeneficiary5,
  OBFrequency6,
  OBReadDirectDebit2,
  OBScheduledPayment3,
  OBStandingOrder6,
} from '../../../plumbing/ob-wire/account-info.ts'
import type { AisBank, BankAccount } from '../ais-bank.ts'
import type { GrantedPermissions } from '../consents/permissions.ts'
import { startOfUtcDay } from '../seed/calendar.ts'
import { transactionId } from '../seed/ledger.ts'
import { obAmount, toPence } from '../seed/money.ts'
import { iso, sortCodeAccount } from './format.ts'

const two = (n: number) => String(n).padStart(2, '0')

/** Standing orders of a current account, with their last and next payments read from the history. */
export function standingOrderViews(
  bank: AisBank,
  a: BankAccount,
  p: GrantedPermissions,
  nowMs: number,
): OBStandingOrder6[] {
  return (a.spec.standingOrders ?? []).map((so) => {
    const entries = bank.mandateEntries(a.account.accountId, so.id)
    const last = entries.filter((e) => e.bookAt <= nowMs).at(-1)
    const next = entries.find((e) => e.bookAt > nowMs)
    const amount = obAmount(toPence(so.amount), a.account.currency)
    const view: OBStandingOrder6 = {
      AccountId: a.account.accountId,
      StandingOrderId: so.id,
      ...(next ? { NextPaymentDateTime: iso(startOfUtcDay(next.bookAt)), NextPaymentAmount: amount } : {}),
      ...(last ? { LastPaymentDateTime: iso(last.bookAt), LastPaymentAmount: amount } : {}),
      StandingOrderStatusCode: 'ACTV',
      FirstPaymentAmount: amount,
      MandateRelatedInformation: {
        FirstPaymentDateTime: iso(Date.parse(`${so.firstPaymentDate}T00:00:00Z`)),
        Frequency: { Type: 'MNTH', PointInTime: two(so.dayOfMonth) },
      },
      RemittanceInformation: { Unstructured: [so.reference] },
    }
    if (p.detail('StandingOrders')) view.CreditorAccount = sortCodeAccount(so.payeeAccount, so.payee)
    return view
  })
}

/** Direct debit mandates of a current account (including the credit card repayment), with the previous collection. */
/** One direct debit of the v4.0 answer. */
export type DirectDebitView = NonNullable<OBReadDirectDebit2['Data']['DirectDebit']>[number]

export function directDebitViews(bank: AisBank, a: BankAccount, nowMs: number): DirectDebitView[] {
  const mandates: Array<{
    id: string
    name: string
    mandate: string
    fixed: boolean
    frequency: OBFrequency6
  }> = (a.spec.directDebits ?? []).map((dd) => ({
    id: dd.id,
    name: dd.name,
    mandate: dd.mandate,
    fixed: dd.amount[0] === dd.amount[1],
    frequency: { Type: dd.months?.length === 1 ? 'YEAR' : 'MNTH', PointInTime: two(dd.dayOfMonth) },
  }))
  const repay = a.spec.cardRepayment
  // The card repayment follows the card's statement date: once a month, on a day that varies with weekends.
  if (repay)
    mandates.push({
      id: repay.directDebitId,
      name: repay.name,
      mandate: repay.mandate,
      fixed: false,
      frequency: { Type: 'MNTH', CountPerPeriod: 1 },
    })
  return mandates.map((m) => {
    const previous = bank
      .mandateEntries(a.account.accountId, m.id)
      .filter((e) => e.bookAt <= nowMs)
      .at(-1)
    const frequency = m.frequency
    return {
      AccountId: a.account.accountId,
      DirectDebitId: m.id,
      DirectDebitStatusCode: 'ACTV',
      Name: m.name,
      ...(previous
        ? {
            PreviousPaymentDateTime: iso(previous.bookAt),
            PreviousPaymentAmount: obAmount(previous.pence, a.account.currency),
          }
        : {}),
      MandateRelatedInformation: {
        MandateIdentification: m.mandate,
        Classification: m.fixed ? 'FIXE' : 'VARI',
        Frequency: frequency,
      },
    }
  })
}

/** Saved payees of a current account. `ReadBeneficiariesDetail` adds the payee's account. */
export function beneficiaryViews(a: BankAccount, p: GrantedPermissions): OBBeneficiary5[] {
  return (a.spec.beneficiaries ?? []).map((b) => ({
    AccountId: a.account.accountId,
    BeneficiaryId: b.id,
    BeneficiaryType: b.type,
    Reference: b.reference,
    ...(p.detail('Beneficiaries') ? { CreditorAccount: sortCodeAccount(b.account, b.name) } : {}),
  }))
}

/**
 * One-off payments to a beneficiary that were set up in advance and have not executed yet (they execute as
 * FPO transactions on their date). `ReadScheduledPaymentsDetail` adds the payee's account.
 */
export function scheduledPaymentViews(a: BankAccount, p: GrantedPermissions, nowMs: number): OBScheduledPayment3[] {
  const out: OBScheduledPayment3[] = []
  for (let i = a.ledger.firstBookingAfter(nowMs); i < a.ledger.entries.length; i++) {
    const e = a.ledger.entries[i]!
    if (e.scheduledAt === undefined || e.scheduledAt > nowMs || e.authAt <= nowMs) continue
    out.push({
      AccountId: a.account.accountId,
      ScheduledPaymentId: `sp-${transactionId(a.ledger, e, false).slice(3)}`,
      ScheduledPaymentDateTime: iso(e.authAt),
      ScheduledType: 'Execution',
      ...(e.remittance ? { Reference: e.remittance } : {}),
      InstructedAmount: obAmount(e.pence, a.account.currency),
      ...(p.detail('ScheduledPayments') && e.creditor?.account
        ? { CreditorAccount: sortCodeAccount(e.creditor.account, e.creditor.name) }
        : {}),
    })
  }
  return out
}
