import type { PisConsentRecord } from '../../consents/consent-store.ts'
import { ObApiError } from '../../http/ob-error.ts'
import type { PisDeps } from '../pis-deps.ts'
import type { PaymentRecord } from '../store/payment-store.ts'

/** Another TPP's resource: 403, as v4.0 says, without telling whose it is. */
export function forbiddenResource(kind: string, id: string): ObApiError {
  return new ObApiError(403, {
    code: 'U006',
    path: 'Authorization',
    message: `the ${kind} ${id} was not created by the client of this access token; a TPP can only use its own ${kind}s`,
  })
}

/** The domestic payment consent `consentId` of `clientId`: 400 `U011` when unknown, 403 when another client's. */
export async function ownedConsent(
  deps: PisDeps,
  consentId: string,
  clientId: string,
  path?: string,
): Promise<PisConsentRecord> {
  const consent = await deps.sandbox.consents.getPis(consentId)
  if (!consent) {
    throw new ObApiError(400, {
      code: 'U011',
      ...(path ? { path } : {}),
      message: `no domestic payment consent with ConsentId "${consentId}"; use the ConsentId returned by POST /domestic-payment-consents`,
    })
  }
  if (consent.clientId !== clientId) throw forbiddenResource('domestic payment consent', consentId)
  return consent
}

/** The domestic payment `paymentId` of `clientId`: 400 `U011` when unknown, 403 when another client's. */
export async function ownedPayment(deps: PisDeps, paymentId: string, clientId: string): Promise<PaymentRecord> {
  const payment = await deps.sandbox.store.payment(paymentId)
  if (!payment) {
    throw new ObApiError(400, {
      code: 'U011',
      message: `no domestic payment with DomesticPaymentId "${paymentId}"; use the DomesticPaymentId returned by POST /domestic-payments`,
    })
  }
  if (payment.clientId !== clientId) throw forbiddenResource('domestic payment', paymentId)
  return payment
}
