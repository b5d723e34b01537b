import type { OBWritePaymentDetails1 } from '../../plumbing/ob-wire/payment-initiation.ts'
import type { PaymentRecord } from './store/payment-store.ts'

/** A payment is `ACSP` (accepted, settlement in process) this long after creation, sandbox time. */
export const ACSP_AFTER_MS = 2_000
/** A payment is `ACSC` (settlement completed on the debtor account) this long after creation, sandbox time. */
export const ACSC_AFTER_MS = 10_000

export type DomesticPaymentStatus = 'RCVD' | 'ACSP' | 'ACSC' | 'RJCT'

/**
 * A status as payment-details shows it (`Status` and `StatusDetail.Status`). The official v4.0
 * `OBWritePaymentDetails1` lists 4-letter ISO 20022 codes (PDNG, ACTC, ..., ACSP, ACSC, RJCT) and has no
 * `RCVD`: a payment received but not yet accepted is pending, `PDNG`. The long v3.1 names
 * ("AcceptedSettlementInProcess") are not allowed there.
 */
export const PAYMENT_DETAILS_STATUS: Record<DomesticPaymentStatus, OBWritePaymentDetails1['Status']> = {
  RCVD: 'PDNG',
  ACSP: 'ACSP',
  ACSC: 'ACSC',
  RJCT: 'RJCT',
}

export interface PaymentStatusEntry {
  status: DomesticPaymentStatus
  /** Sandbox time (ms) the status was reached: the threshold moment, not the moment it was observed. */
  atMs: number
  reasonCode?: string
  reasonDescription?: string
}

/**
 * The statuses a payment has gone through up to `nowMs`, oldest first: `RCVD` at creation, `ACSP`
 * after {@link ACSP_AFTER_MS}, `ACSC` after {@link ACSC_AFTER_MS}; a payment rejected at submission
 * (insufficient funds) is `RJCT` from creation and never moves.
 */
export function paymentStatusHistory(payment: PaymentRecord, nowMs: number): PaymentStatusEntry[] {
  const t0 = payment.createdAtMs
  if (payment.rejection) {
    return [
      {
        status: 'RJCT',
        atMs: t0,
        reasonCode: payment.rejection.code,
        reasonDescription: payment.rejection.description,
      },
    ]
  }
  const history: PaymentStatusEntry[] = [{ status: 'RCVD', atMs: t0 }]
  if (nowMs >= t0 + ACSP_AFTER_MS) history.push({ status: 'ACSP', atMs: t0 + ACSP_AFTER_MS })
  if (nowMs >= t0 + ACSC_AFTER_MS) history.push({ status: 'ACSC', atMs: t0 + ACSC_AFTER_MS })
  return history
}

/** The payment's current status (the last of its history). */
export function currentPaymentStatus(payment: PaymentRecord, nowMs: number): PaymentStatusEntry {
  const history = paymentStatusHistory(payment, nowMs)
  return history[history.length - 1]!
}
