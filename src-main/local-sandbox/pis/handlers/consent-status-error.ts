import type { PisConsentRecord } from '../../consents/consent-store.ts'
import { ObApiError } from '../../http/ob-error.ts'

const WHY: Record<PisConsentRecord['status'], string> = {
  AWAU: 'the PSU has not authorised it yet: send the PSU to the authorisation URL and exchange the code for a token first',
  RJCT: 'the PSU (or the bank) rejected it; create a new consent',
  COND: 'it was consumed by its payment (status reason U038); create a new consent for a new payment',
  AUTH: 'it is authorised',
}

/** 400 `U009`: the consent is not `AUTH`, with what its status means and what to do. */
export function consentNotAuthorised(consent: PisConsentRecord, action: string): ObApiError {
  return new ObApiError(400, {
    code: 'U009',
    message: `${action} needs the consent to be AUTH; consent ${consent.consentId} is ${consent.status}: ${WHY[consent.status]}`,
  })
}
