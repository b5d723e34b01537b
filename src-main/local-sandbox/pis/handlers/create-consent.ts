import type { Context } from 'koa'
import type { OBWriteDomesticConsent4 } from '../../../plumbing/ob-wire/payment-initiation.ts'
import { ObApiError } from '../../http/ob-error.ts'
import type { PisConsentRecord } from '../../consents/consent-store.ts'
import type { PsuDirectory } from '../../psus.ts'
import { bodyHash, idempotencyClaim } from '../store/idempotency-store.ts'
import { requireAccessToken } from '../../resource/require-token.ts'
import { parseJsonBody, readIdempotencyKey, requireMutualTls } from '../http/request-checks.ts'
import type { PisDeps } from '../pis-deps.ts'
import { consentResponse } from '../responses/consent-response.ts'
import { checkConsentRules } from '../rules/consent-rules.ts'
import { validateRequestBody } from '../schema/validate-request.ts'
import { idempotencyConflict } from './idempotency-conflict.ts'
import { readSignedBody } from './signed-request.ts'
import { checked } from '../../conformance/probe.ts'
import { requireAccept, requireJsonContentType } from '../../resource/media-types.ts'

/** The seed account a DebtorAccount names (same scheme and identification), if the sandbox holds it. */
function seedAccountId(
  psus: PsuDirectory,
  debtor: OBWriteDomesticConsent4['Data']['Initiation']['DebtorAccount'],
): string | undefined {
  if (!debtor) return undefined
  for (const psu of psus.psus) {
    const account = psu.accounts.find(
      (a) => a.scheme === debtor.SchemeName && a.identification === debtor.Identification,
    )
    if (account) return account.accountId
  }
  return undefined
}

/**
 * POST /domestic-payment-consents: client-credentials token, signed body, idempotency key. Creates
 * the consent (`AWAU`) and answers 201 `OBWriteDomesticConsentResponse5`; a replay of the same key and
 * body answers 201 with the consent's current state.
 */
export async function createConsent(ctx: Context, deps: PisDeps): Promise<void> {
  requireMutualTls(ctx)
  const token = await requireAccessToken(ctx, deps.auth.tokens, { grant: 'client_credentials', scope: 'payments' })
  requireAccept(ctx)
  requireJsonContentType(ctx)
  const key = readIdempotencyKey(ctx)
  const body = await readSignedBody(ctx, deps, token)
  const { consents, store, psus, clock, addresses } = deps.sandbox
  const conflict = (resourceId: string, firstUsedAtMs: number) =>
    checked(ctx, 'idempotency.reuse', () => {
      throw idempotencyConflict(key, 'domestic payment consent', resourceId, firstUsedAtMs)
    })
  const replay = async (consentId: string) => {
    const consent = await consents.getPis(consentId)
    if (!consent)
      throw new ObApiError(400, {
        code: 'U011',
        message: `the consent ${consentId} created with this x-idempotency-key no longer exists`,
      })
    ctx.status = 201
    ctx.body = consentResponse({
      consent,
      payment: await store.paymentByConsent(consent.consentId),
      psus,
      baseUrl: addresses.baseUrl,
    })
  }

  // A key seen before answers before the request is judged again: the first answer, or 400 for another body.
  const claim = () => idempotencyClaim(token.clientId, 'domestic-payment-consents', key, body, clock.nowMs())
  const seen = await store.idempotencyRecord(claim())
  if (seen && seen.bodySha256 !== bodyHash(body)) return conflict(seen.resourceId, seen.createdAtMs)
  checked(ctx, 'idempotency.reuse', () => undefined)
  if (seen) return replay(seen.resourceId)

  const parsed = checked(ctx, 'schema.request-body', () => {
    const json = parseJsonBody(body)
    validateRequestBody('consent', json)
    return json
  })
  const { Data: data, Risk: risk } = parsed as OBWriteDomesticConsent4
  checkConsentRules(data, clock.nowMs())
  // The consent and its key in one step: of two concurrent requests with one key, one creates the consent.
  const outcome = await store.createConsentOnce(
    claim(),
    consents.newPis({
      clientId: token.clientId,
      data,
      risk,
      debtorAccountId: seedAccountId(psus, data.Initiation.DebtorAccount),
    }),
  )
  if (outcome.kind === 'replay') return replay(outcome.resourceId)
  if (outcome.kind === 'conflict') return conflict(outcome.resourceId, outcome.firstUsedAtMs)
  ctx.status = 201
  ctx.body = consentResponse({ consent: outcome.value as PisConsentRecord, psus, baseUrl: addresses.baseUrl })
}
