/** Where PIS v4.0 lives on `{base_url}`. */
export const PIS_BASE_PATH = '/open-banking/v4.0/pisp'

/** Absolute URLs of PIS resources, as `Links.Self` carries them. */
export const pisUrls = {
  consent: (baseUrl: string, consentId: string) =>
    `${baseUrl}${PIS_BASE_PATH}/domestic-payment-consents/${encodeURIComponent(consentId)}`,
  fundsConfirmation: (baseUrl: string, consentId: string) =>
    `${pisUrls.consent(baseUrl, consentId)}/funds-confirmation`,
  payment: (baseUrl: string, paymentId: string) =>
    `${baseUrl}${PIS_BASE_PATH}/domestic-payments/${encodeURIComponent(paymentId)}`,
  paymentDetails: (baseUrl: string, paymentId: string) => `${pisUrls.payment(baseUrl, paymentId)}/payment-details`,
}
