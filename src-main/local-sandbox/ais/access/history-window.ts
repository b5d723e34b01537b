import type { AisConsentRecord } from '../../consents/consent-store.ts'

/** How long after the PSU authorises a consent its requests count as made with SCA (sandbox time). */
export const SCA_WINDOW_MS = 5 * 60 * 1000
/** Transaction history available without SCA (the bank's spec, section 8). */
export const NO_SCA_HISTORY_MS = 90 * 24 * 60 * 60 * 1000

/** Whether a request at `nowMs` counts as made with SCA: within SCA_WINDOW_MS of the PSU's (re-)authorisation. */
export function withinScaWindow(consent: AisConsentRecord, nowMs: number): boolean {
  return (
    consent.authorisedAtMs !== undefined &&
    nowMs >= consent.authorisedAtMs &&
    nowMs - consent.authorisedAtMs <= SCA_WINDOW_MS
  )
}

export interface BookingWindow {
  /** Inclusive bounds on BookingDateTime, sandbox ms. */
  from: number
  to: number
  /** The earliest BookingDateTime this consent may see now, before the request's own filter. */
  floor: number
}

/**
 * The BookingDateTime range a transactions request may return: the request's filter, within the
 * consent's TransactionFromDateTime / TransactionToDateTime and, without SCA, within the last 90 days.
 */
export function bookingWindow(
  consent: AisConsentRecord,
  nowMs: number,
  filter: { from?: number; to?: number },
): BookingWindow {
  const consentFrom = consent.transactionFromDateTime ? Date.parse(consent.transactionFromDateTime) : -Infinity
  const consentTo = consent.transactionToDateTime ? Date.parse(consent.transactionToDateTime) : Infinity
  const floor = Math.max(consentFrom, withinScaWindow(consent, nowMs) ? -Infinity : nowMs - NO_SCA_HISTORY_MS)
  return { from: Math.max(floor, filter.from ?? -Infinity), to: Math.min(consentTo, filter.to ?? Infinity), floor }
}
