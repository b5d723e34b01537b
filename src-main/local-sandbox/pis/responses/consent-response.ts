import type {
  OBWriteDomesticConsentResponse5,
  OBWriteFundsConfirmationResponse1,
} from '../../../plumbing/ob-wire/payment-initiation.ts'
import { isoDateTime } from '../../clock.ts'
import type { PisConsentRecord } from '../../consents/consent-store.ts'
import type { PsuDirectory } from '../../psus.ts'
import { ACSC_AFTER_MS } from '../payment-status.ts'
import { pisUrls } from '../pis-paths.ts'
import { cutOffMs } from '../rules/cut-off.ts'
import type { PaymentRecord } from '../store/payment-store.ts'
import { debtorAccountView } from './debtor.ts'

export interface ConsentResponseInput {
  consent: PisConsentRecord
  /** The payment that consumed the consent, when it is `COND`. */
  payment?: PaymentRecord
  psus: PsuDirectory
  baseUrl: string
}

function iso(ms: number): string {
  return isoDateTime(new Date(ms))
}

/**
 * `OBWriteDomesticConsentResponse5`: the request's Data echoed unchanged, plus ConsentId, status,
 * dates, `Charges: []` (the sandbox charges nothing), `Debtor` once a PSU authorised it, `Risk`,
 * `Links.Self` and `Meta`. Field order follows the v4.0 data dictionary.
 */
export function consentResponse({
  consent,
  payment,
  psus,
  baseUrl,
}: ConsentResponseInput): OBWriteDomesticConsentResponse5 {
  const { Initiation, Authorisation, SCASupportData, ReadRefundAccount } = consent.data
  const created = Date.parse(consent.creationDateTime)
  const executionMs = payment ? payment.createdAtMs : created
  const debtor =
    consent.status === 'AUTH' || consent.status === 'COND'
      ? debtorAccountView(psus, consent.debtorAccountId)
      : undefined
  return {
    Data: {
      ConsentId: consent.consentId,
      CreationDateTime: iso(created),
      Status: consent.status,
      ...(consent.statusReason?.length ? { StatusReason: consent.statusReason } : {}),
      StatusUpdateDateTime: iso(Date.parse(consent.statusUpdateDateTime)),
      ...(ReadRefundAccount !== undefined ? { ReadRefundAccount } : {}),
      CutOffDateTime: iso(cutOffMs(consent.creationDateTime)),
      ExpectedExecutionDateTime: iso(executionMs),
      ExpectedSettlementDateTime: iso(executionMs + ACSC_AFTER_MS),
      Charges: [],
      Initiation,
      ...(Authorisation !== undefined ? { Authorisation } : {}),
      ...(SCASupportData !== undefined ? { SCASupportData } : {}),
      ...(debtor ? { Debtor: debtor } : {}),
    },
    Risk: consent.risk,
    Links: { Self: pisUrls.consent(baseUrl, consent.consentId) },
    Meta: {},
  }
}

/** `OBWriteFundsConfirmationResponse1`. */
export function fundsConfirmationResponse(input: {
  consentId: string
  available: boolean
  atMs: number
  baseUrl: string
}): OBWriteFundsConfirmationResponse1 {
  return {
    Data: { FundsAvailableResult: { FundsAvailableDateTime: iso(input.atMs), FundsAvailable: input.available } },
    Links: { Self: pisUrls.fundsConfirmation(input.baseUrl, input.consentId) },
    Meta: {},
  }
}
