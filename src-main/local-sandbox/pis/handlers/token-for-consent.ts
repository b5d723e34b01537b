import type { TokenInfo } from '../../auth/types.ts'
import { ObApiError } from '../../http/ob-error.ts'

/** 403 unless the authorisation-code token was issued for `consentId` (its `openbanking_intent_id`). */
export function requireTokenForConsent(token: TokenInfo, consentId: string): void {
  if (token.consentId === consentId) return
  throw new ObApiError(403, {
    code: 'U006',
    path: 'Authorization',
    message: `the access token was issued for consent ${token.consentId ?? '(none)'}, not ${consentId}; use the token obtained by authorising consent ${consentId}`,
  })
}
