import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import { JournaledMap } from '../../store/journaled-map.ts'
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
 * Domestic payments, persisted in `state/pis-payments.json` and its journal (see JournaledMap): each
 * payment is on disk before it is answered.
 * At most one payment exists per consent: a consent is consumed by its payment.
 */
export class PaymentStore {
  readonly #payments: JournaledMap<PaymentRecord>

  constructor(stateDir: string) {
    this.#payments = new JournaledMap(join(stateDir, 'pis-payments.json'))
  }

  /** Creates and persists a payment. */
  create(input: NewPayment): PaymentRecord {
    const id = randomUUID()
    const record: PaymentRecord = {
      ...input,
      domesticPaymentId: `dp-${id}`,
      paymentTransactionId: `SBX${id.replace(/-/g, '').slice(0, 20).toUpperCase()}`,
    }
    this.#payments.set(record.domesticPaymentId, record)
    return record
  }

  get(domesticPaymentId: string): PaymentRecord | undefined {
    return this.#payments.get(domesticPaymentId)
  }

  /** The payment that consumed `consentId`, if any. */
  byConsent(consentId: string): PaymentRecord | undefined {
    for (const p of this.#payments.entries.values()) if (p.consentId === consentId) return p
    return undefined
  }

  /** Every payment, oldest first (rejected ones included). */
  all(): PaymentRecord[] {
    return [...this.#payments.entries.values()].sort((a, b) => a.createdAtMs - b.createdAtMs)
  }

  /** Every payment debited from `accountId` (rejected ones included; callers filter). */
  fromAccount(accountId: string): PaymentRecord[] {
    return [...this.#payments.entries.values()].filter((p) => p.debtorAccountId === accountId)
  }
}
