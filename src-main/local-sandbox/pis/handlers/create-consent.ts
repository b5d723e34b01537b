import type { Context } from 'koa'
import { ObApiError } from '../../http/ob-error.ts'
import type { PsuDirectory } from '../../psus.ts'
import { requireAccessToken } from '../../resource/require-token.ts'
import {
  parseJsonBody,
  readIdempotencyKey,
  requireAcceptJson,
  requireJsonContentType,
  requireMutualTls,
} from '../http/request-checks.ts'
import type { PisDeps } from '../pis-deps.ts'
import { consentResponse } from '../responses/consent-response.ts'
import { checkConsentRules, type DomesticConsentData } from '../rules/consent-rules.ts'
import { validateRequestBody } from '../schema/validate-request.ts'
import { idempotencyConflict } from './idempotency-conflict.ts'
import { readSignedBody } from './signed-request.ts'
import { checked } from '../../conformance/probe.ts'

/** The seed account a DebtorAccount names (same scheme and identification), if the sandbox holds it. */
function seedAccountId(
  psus: PsuDirectory,
  debtor: DomesticConsentData['Initiation']['DebtorAccount'],
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
  requireAcceptJson(ctx)
  requireJsonContentType(ctx)
  const key = readIdempotencyKey(ctx)
  const body = await readSignedBody(ctx, deps, token)
  const { consents, psus, clock, addresses } = deps.sandbox

  // From here on nothing awaits: two concurrent requests with one key cannot both create a consent.
  const seen = deps.idempotency.lookup(token.clientId, 'domestic-payment-consents', key, body)
  checked(ctx, 'idempotency.reuse', () => {
    if (seen.kind === 'conflict')
      throw idempotencyConflict(key, 'domestic payment consent', seen.resourceId, seen.firstUsedAtMs)
  })
  if (seen.kind === 'replay') {
    const consent = consents.getPis(seen.resourceId)
    if (!consent)
      throw new ObApiError(400, {
        code: 'U011',
        message: `the consent ${seen.resourceId} created with this x-idempotency-key no longer exists`,
      })
    ctx.status = 201
    ctx.body = consentResponse({
      consent,
      payment: deps.payments.byConsent(consent.consentId),
      psus,
      baseUrl: addresses.baseUrl,
    })
    return
  }

  const parsed = checked(ctx, 'schema.request-body', () => {
    const json = parseJsonBody(body)
    validateRequestBody('consent', json)
    return json
  })
  const { Data: data, Risk: risk } = parsed as { Data: DomesticConsentData; Risk: Record<string, unknown> }
  checkConsentRules(data, clock.nowMs())
  const consent = consents.createPis({
    clientId: token.clientId,
    data: data as unknown as Record<string, unknown>,
    risk,
    debtorAccountId: seedAccountId(psus, data.Initiation.DebtorAccount),
  })
  deps.idempotency.remember(token.clientId, 'domestic-payment-consents', key, body, consent.consentId)
  ctx.status = 201
  ctx.body = consentResponse({ consent, psus, baseUrl: addresses.baseUrl })
}
