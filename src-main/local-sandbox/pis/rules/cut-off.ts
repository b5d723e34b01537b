/**
 * The sandbox's CutOffDateTime behaviour ("reject", in the v4.0 profile's terms): a domestic payment
 * consent must be authorised and its payment submitted within this long of the consent's creation,
 * sandbox time; a later POST /domestic-payments is refused with 400 `U012`.
 */
export const CUT_OFF_AFTER_MS = 24 * 60 * 60 * 1000

/** The consent's CutOffDateTime in sandbox milliseconds. */
export function cutOffMs(consentCreationDateTime: string): number {
  return Date.parse(consentCreationDateTime) + CUT_OFF_AFTER_MS
}
