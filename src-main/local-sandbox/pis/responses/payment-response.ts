import type {
  OBWriteDomesticResponse5,
  OBWritePaymentDetailsResponse1,
} from '../../../plumbing/ob-wire/payment-initiation.ts'
import { isoDateTime } from '../../clock.ts'
import type { PsuDirectory } from '../../psus.ts'
import { ACSC_AFTER_MS, PAYMENT_DETAILS_STATUS, paymentStatusHistory } from '../payment-status.ts'
import { pisUrls } from '../pis-paths.ts'
import type { PaymentRecord } from '../store/payment-store.ts'
import { debtorAccountView } from './debtor.ts'

export interface PaymentResponseInput {
  payment: PaymentRecord
  nowMs: number
  psus: PsuDirectory
  baseUrl: string
}

function iso(ms: number): string {
  return isoDateTime(new Date(ms))
}

/**
 * `OBWriteDomesticResponse5` at sandbox time `nowMs`: status from the timeline (payment-status.ts),
 * `StatusReason` for a rejected payment, `Refund` when the consent asked for the refund account,
 * `Debtor`, no `Risk`.
 */
export function paymentResponse({ payment, nowMs, psus, baseUrl }: PaymentResponseInput): OBWriteDomesticResponse5 {
  const history = paymentStatusHistory(payment, nowMs)
  const current = history[history.length - 1]!
  const debtor = debtorAccountView(psus, payment.debtorAccountId)
  return {
    Data: {
      DomesticPaymentId: payment.domesticPaymentId,
      ConsentId: payment.consentId,
      CreationDateTime: iso(payment.createdAtMs),
      Status: current.status,
      StatusUpdateDateTime: iso(current.atMs),
      ...(current.reasonCode
        ? {
            StatusReason: [
              { StatusReasonCode: current.reasonCode, StatusReasonDescription: current.reasonDescription },
            ],
          }
        : {}),
      ...(payment.rejection
        ? {}
        : {
            ExpectedExecutionDateTime: iso(payment.createdAtMs),
            ExpectedSettlementDateTime: iso(payment.createdAtMs + ACSC_AFTER_MS),
          }),
      ...(payment.readRefundAccount && debtor ? { Refund: { Account: debtor } } : {}),
      Charges: [],
      Initiation: payment.initiation,
      ...(debtor ? { Debtor: debtor } : {}),
    },
    Links: { Self: pisUrls.payment(baseUrl, payment.domesticPaymentId) },
    Meta: {},
  }
}

/** `OBWritePaymentDetailsResponse1`: every status the payment reached, oldest first, as the file's 4-letter codes (RCVD shows as PDNG). */
export function paymentDetailsResponse({
  payment,
  nowMs,
  baseUrl,
}: Omit<PaymentResponseInput, 'psus'>): OBWritePaymentDetailsResponse1 {
  const localInstrument = payment.initiation.LocalInstrument ?? 'UK.OBIE.FPS'
  return {
    Data: {
      PaymentStatus: paymentStatusHistory(payment, nowMs).map((entry) => ({
        PaymentTransactionId: payment.paymentTransactionId,
        Status: PAYMENT_DETAILS_STATUS[entry.status],
        StatusUpdateDateTime: iso(entry.atMs),
        StatusDetail: {
          LocalInstrument: localInstrument,
          Status: PAYMENT_DETAILS_STATUS[entry.status],
          ...(entry.reasonCode
            ? { StatusReason: entry.reasonCode, StatusReasonDescription: entry.reasonDescription }
            : {}),
        },
      })),
    },
    Links: { Self: pisUrls.paymentDetails(baseUrl, payment.domesticPaymentId) },
    Meta: {},
  }
}
