/**
 * The consent's expiry in words, from the consent step's output (`expirationDateTime`, the bank's
 * ExpirationDateTime), against `now`: the environment's time (src-renderer/store/use-environment-now.ts).
 */
import type { FlowState } from '../../../src-main/contract/flows.ts'
import { formatDate } from '../../lib/format.ts'
import { relativeTime } from '../../lib/clock.ts'

export function consentExpiry(flow: FlowState, now: number): { text: string; expired: boolean } | undefined {
  const consent = flow.steps.find((s) => s.id === 'consent' && s.status === 'done')
  if (!consent) return undefined
  const out = consent.output as { consentId?: string; expirationDateTime?: unknown } | undefined
  const at = typeof out?.expirationDateTime === 'string' ? out.expirationDateTime : undefined
  if (!at) return { text: 'Consent without an expiry date (valid until the PSU or TPP revokes it).', expired: false }
  const when = relativeTime(at, now)
  if (!when) return { text: `Consent expiry not readable: ${at}`, expired: false }
  return when.past
    ? { text: `Consent expired ${formatDate(at)} (${when.words}).`, expired: true }
    : { text: `Consent expires ${formatDate(at)} (${when.words}).`, expired: false }
}
