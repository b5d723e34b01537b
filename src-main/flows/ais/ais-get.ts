import { AppError } from '../../core/app-error.ts'
import { apiUrl, bearerGet } from '../common/bank-requests.ts'
import { authorisedConsent } from '../common/consent-journey.ts'
import { unexpectedAnswer } from '../common/failures.ts'
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
  if (!ctx.ais.input.psuPresent && res.status === 429) throw psuAbsentThrottled(res, label)
  return res
}

/**
 * A 429 on an AIS call without the PSU: the bank's throttling explained, with the one limit that applies to
 * these calls alone (PSU-present and payment calls get the plain explanation of the status).
 */
function psuAbsentThrottled(res: FlowResponse, label: string): AppError {
  const explained = unexpectedAnswer(
    res,
    `Reading ${label} without the PSU present failed`,
    'Wait, or mark the PSU as present.',
  )
  return new AppError(explained.code, {
    what: explained.what,
    cause: `${explained.cause} Without the PSU present, account information is limited to 4 calls in 24 hours (bank-interface-spec.md §8), and this call was made without the PSU.`,
    fix: `${explained.fix} Mark the PSU as present only when the PSU is actively using your app (it sends x-fapi-customer-ip-address).`,
    ...(explained.details ? { details: explained.details } : {}),
    ...(explained.problems ? { problems: explained.problems } : {}),
  })
}
