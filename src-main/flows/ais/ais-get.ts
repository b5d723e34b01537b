import { AppError } from '../../core/app-error.ts'
import { apiUrl, bearerGet } from '../common/bank-requests.ts'
import { authorisedConsent } from '../common/consent-journey.ts'
import type { FlowResponse } from '../flow-context.ts'
import type { StepScope } from '../step-machine.ts'
import { AIS_STEPS, type AisFlowContext } from './ais-context.ts'
import type { ExemptEndpoint } from './psu-absent-budget.ts'

/** The PSU's IP address, sent only when the PSU is present and the address is known (it lifts the PSU-absent cap). */
export function psuHeaders(ctx: AisFlowContext): Record<string, string> {
  const ip = ctx.ais.input.psuIpAddress?.trim()
  return ctx.ais.input.psuPresent && ip ? { 'x-fapi-customer-ip-address': ip } : {}
}

/**
 * A GET of the AIS API (`path` after its base path) with the PSU-authorised token. `counted`: the exempt
 * endpoint this call counts against when the PSU is absent (null: not an exempt endpoint); the call is
 * refused before it is sent when that allowance is spent, and counted once the bank answered 200.
 */
export async function aisGet(
  ctx: AisFlowContext,
  scope: StepScope,
  path: string,
  label: string,
  counted: { account?: string; endpoint: ExemptEndpoint } | null,
): Promise<FlowResponse> {
  const { consentId, accessToken } = authorisedConsent(scope, AIS_STEPS.consent)
  if (!ctx.ais.input.psuPresent && counted) {
    const left = ctx.ais.budget.budget(consentId, counted.account, counted.endpoint)
    if (left.remaining === 0) {
      throw new AppError('INVALID_INPUT', {
        what: `No PSU-absent calls left for ${counted.account ? `${counted.endpoint} of account ${counted.account}` : 'the account list'} of consent ${consentId}.`,
        cause: `The bank allows 4 calls in 24 hours without the PSU present; the next is allowed at ${left.nextSlotAt}.`,
        fix: 'Wait until then, or mark the PSU as present (only when the PSU is actively using your app).',
      })
    }
  }
  const res = await bearerGet(ctx, scope, apiUrl(ctx, 'ais', path), accessToken, label, psuHeaders(ctx))
  if (!ctx.ais.input.psuPresent && counted && res.status === 200)
    ctx.ais.budget.record(consentId, counted.account, counted.endpoint)
  return res
}
