import type { AisBank } from '../../ais/ais-bank.ts'
import type { LedgerEntry, PostedEntry } from '../../ais/seed/ledger.ts'
import { ACSC_AFTER_MS } from '../payment-status.ts'
import { amountToUnits } from '../rules/amount.ts'
import type { DomesticInitiation } from '../rules/consent-rules.ts'
import type { PaymentRecord } from '../store/payment-store.ts'

interface Remittance {
  Unstructured?: string[]
  Structured?: Array<{ CreditorReferenceInformation?: { Reference?: string } }>
}

/**
 * The payer's reference of a payment, as the payee sees it: the creditor reference
 * (`RemittanceInformation.Structured[].CreditorReferenceInformation.Reference`, where v4.0 moved v3's
 * `Reference`), else the first `Unstructured` line; undefined without either.
 */
export function paymentRemittance(initiation: DomesticInitiation): string | undefined {
  const info = initiation.RemittanceInformation as Remittance | undefined
  const reference = info?.Structured?.find((s) => s.CreditorReferenceInformation?.Reference)
    ?.CreditorReferenceInformation?.Reference
  return reference ?? info?.Unstructured?.find((line) => line.length > 0)
}

/**
 * The transaction a domestic payment makes on its debtor account, in the shape the history generator
 * gives a Faster Payment out (`FPO`, BankTransactionCode `ICDT`/`DMCT`): a debit of the InstructedAmount,
 * the creditor's name and account from `Initiation.CreditorAccount`, TransactionInformation
 * `"<CREDITOR NAME> <reference>"` and the reference (see `paymentRemittance`). Its TransactionReference
 * is the payment's `PaymentTransactionId` (payment-details), unique per payment, unlike the TPP's
 * `EndToEndIdentification`. It happens at the payment's creation and books when the payment reaches
 * `ACSC` (payment-status.ts): pending (`PDNG`) before, booked (`BOOK`) from then on.
 */
export function paymentLedgerEntry(payment: PaymentRecord): PostedEntry {
  const { CreditorAccount: creditor, InstructedAmount: amount } = payment.initiation
  const remittance = paymentRemittance(payment.initiation)
  const pence = Number(amountToUnits(amount.Amount) / 1000n)
  const name = creditor.Name
  return {
    authAt: payment.createdAtMs,
    bookAt: payment.createdAtMs + ACSC_AFTER_MS,
    pence: -pence,
    code: 'FPO',
    btc: { Code: 'ICDT', SubCode: 'DMCT' },
    info: remittance ? `${name.toUpperCase()} ${remittance}` : name.toUpperCase(),
    reference: payment.paymentTransactionId,
    ...(remittance ? { remittance } : {}),
    creditor: {
      name,
      account: creditor.Identification,
      ...(creditor.SchemeName === 'UK.OBIE.IBAN' ? { scheme: 'UK.OBIE.IBAN' as const } : {}),
    },
  }
}

/**
 * Posts an accepted payment on its debtor account's AIS ledger (once: keyed by the payment's id).
 * Rejected payments take nothing and are not posted; neither are payments from an account AIS does not
 * hold (savings). Returns the entry, or undefined when nothing was posted.
 */
export function postPayment(bank: AisBank, payment: PaymentRecord): LedgerEntry | undefined {
  if (payment.rejection || !payment.debtorAccountId) return undefined
  return bank.post(payment.debtorAccountId, payment.domesticPaymentId, paymentLedgerEntry(payment))
}

/** Posts every stored payment (at start: the ledgers are rebuilt from the payment store). Returns how many were posted. */
export function postStoredPayments(bank: AisBank, payments: readonly PaymentRecord[]): number {
  let posted = 0
  for (const payment of payments) if (postPayment(bank, payment)) posted++
  return posted
}
