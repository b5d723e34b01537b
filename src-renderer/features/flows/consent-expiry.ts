/** The consent's expiry in words, from the consent step's output (`expirationDateTime`, the bank's ExpirationDateTime). */
import type { FlowState } from '../../../src-main/contract/flows.ts'
import { formatDate } from '../../lib/format.ts'
import { formatDuration } from '../data/budget-words.ts'

export function consentExpiry(flow: FlowState, now: number): { text: string; expired: boolean } | undefined {
  const consent = flow.steps.find((s) => s.id === 'consent' && s.status === 'done')
  if (!consent) return undefined
  const out = consent.output as { consentId?: string; expirationDateTime?: unknown } | undefined
  const at = typeof out?.expirationDateTime === 'string' ? out.expirationDateTime : undefined
  if (!at) return { text: 'Consent without an expiry date (valid until the PSU or TPP revokes it).', expired: false }
  const left = Date.parse(at) - now
  if (Number.isNaN(left)) return { text: `Consent expiry not readable: ${at}`, expired: false }
  return left <= 0
    ? { text: `Consent expired ${formatDate(at)} (${formatDuration(-left)} ago).`, expired: true }
    : { text: `Consent expires ${formatDate(at)} (in ${formatDuration(left)}).`, expired: false }
}
