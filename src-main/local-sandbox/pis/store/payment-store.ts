import { randomUUID } from 'node:crypto'
import type { DomesticInitiation } from '../rules/consent-rules.ts'

/** Why the sandbox rejected a payment at submission (its status is `RJCT` from the start). */
export interface PaymentRejection {
  /** ISO 20022 / OB status reason code, e.g. `AM04` (InsufficientFunds). */
  code: string
  description: string
}

/** A domestic payment as the sandbox remembers it; its status is derived from the clock (payment-status.ts). */
export interface PaymentRecord {
  domesticPaymentId: string
  consentId: string
  clientId: string
  /** Sandbox time (ms) the payment was created. */
  createdAtMs: number
  /** The Initiation as submitted (equal to the consent's). */
  initiation: DomesticInitiation
  /** The account debited. */
  debtorAccountId?: string
  /** The consent's ReadRefundAccount was "Yes": the response carries the refund account. */
  readRefundAccount: boolean
  /** The scheme's identifier for the transaction (FPID-like), used by payment-details. */
  paymentTransactionId: string
  rejection?: PaymentRejection
}

export type NewPayment = Omit<PaymentRecord, 'domesticPaymentId' | 'paymentTransactionId'>

/**
 * A new domestic payment record with its ids (stored by `SandboxStore.createPaymentForConsent`, which keeps
 * at most one payment per consent).
 */
export function newPayment(input: NewPayment): PaymentRecord {
  const id = randomUUID()
  return {
    ...input,
    domesticPaymentId: `dp-${id}`,
    paymentTransactionId: `SBX${id.replace(/-/g, '').slice(0, 20).toUpperCase()}`,
  }
}
