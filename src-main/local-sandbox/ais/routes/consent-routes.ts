import type { Context } from 'koa'
import { AIS_CONSENT_STATUSES, type AisConsentRecord } from '../../consents/consent-store.ts'
import { ObApiError } from '../../http/ob-error.ts'
import { checkedAsync } from '../../conformance/probe.ts'
import { requireAccessToken } from '../../resource/require-token.ts'
import { validateReadConsent } from '../consents/consent-schema.ts'
import { validatePermissions } from '../consents/permissions.ts'
import { requireJsonContentType } from '../../resource/media-types.ts'
import { psuPresence, readJsonBody } from '../query/http-rules.ts'
import { readQuery } from '../query/query-params.ts'
import { iso } from '../views/format.ts'
import { AIS_BASE_PATH, type AisDeps, type Route } from './route-kit.ts'

/** `OBReadConsentResponse1` of a consent record. */
export function consentResponse(c: AisConsentRecord, deps: AisDeps): Record<string, unknown> {
  return {
    Data: {
      ConsentId: c.consentId,
      CreationDateTime: iso(Date.parse(c.creationDateTime)),
      Status: c.status,
      ...(c.statusReason?.length ? { StatusReason: c.statusReason } : {}),
      StatusUpdateDateTime: iso(Date.parse(c.statusUpdateDateTime)),
      Permissions: c.permissions,
      ...(c.expirationDateTime ? { ExpirationDateTime: c.expirationDateTime } : {}),
      ...(c.transactionFromDateTime ? { TransactionFromDateTime: c.transactionFromDateTime } : {}),
      ...(c.transactionToDateTime ? { TransactionToDateTime: c.transactionToDateTime } : {}),
    },
    Risk: {},
    Links: {
      Self: `${deps.sandbox.addresses.baseUrl}${AIS_BASE_PATH}/account-access-consents/${encodeURIComponent(c.consentId)}`,
    },
    Meta: { TotalPages: 1 },
  }
}

/**
 * The consent `ConsentId` as its owner sees it: 400 U011 when unknown, not an account access consent or
 * deleted (v4.0: a GET after DELETE is 400), 403 when another client created it.
 */
async function ownConsent(ctx: Context, params: Record<string, string>, deps: AisDeps): Promise<AisConsentRecord> {
  const token = await requireAccessToken(ctx, deps.tokens, { grant: 'client_credentials', scope: 'accounts' })
  psuPresence(ctx)
  readQuery(ctx, [])
  const id = params.ConsentId!
  const found = await deps.sandbox.consents.get(id)
  if (!found || found.kind !== 'ais') {
    const what = found ? 'is a payment consent, not an account access consent' : 'does not exist'
    throw new ObApiError(400, {
      code: 'U011',
      path: 'ConsentId',
      message: `account access consent ${id.slice(0, 128)} ${what}`,
    })
  }
  if (found.clientId !== token.clientId) {
    throw new ObApiError(403, {
      code: 'U008',
      path: 'ConsentId',
      message: `account access consent ${id} was created by another client; a client can only read and delete its own consents`,
    })
  }
  if (found.deleted) {
    throw new ObApiError(400, {
      code: 'U011',
      path: 'ConsentId',
      message: `account access consent ${id} was deleted on ${iso(Date.parse(found.statusUpdateDateTime))}; create a new consent`,
    })
  }
  return found
}

async function createConsent(ctx: Context, _params: Record<string, string>, deps: AisDeps): Promise<void> {
  const token = await requireAccessToken(ctx, deps.tokens, { grant: 'client_credentials', scope: 'accounts' })
  psuPresence(ctx)
  readQuery(ctx, [])
  requireJsonContentType(ctx)
  const body = await checkedAsync(ctx, 'schema.request-body', async () => validateReadConsent(await readJsonBody(ctx)))
  const data = body.Data
  validatePermissions(data.Permissions)
  const now = deps.sandbox.clock.nowMs()
  if (data.ExpirationDateTime && Date.parse(data.ExpirationDateTime) <= now) {
    throw new ObApiError(400, {
      code: 'U003',
      path: 'Data.ExpirationDateTime',
      message: `Data.ExpirationDateTime ${data.ExpirationDateTime} is not in the future (sandbox time is ${iso(now)}); leave it out for an open-ended consent`,
    })
  }
  if (
    data.TransactionFromDateTime &&
    data.TransactionToDateTime &&
    Date.parse(data.TransactionFromDateTime) > Date.parse(data.TransactionToDateTime)
  ) {
    throw new ObApiError(400, {
      code: 'U003',
      path: 'Data.TransactionToDateTime',
      message: `Data.TransactionToDateTime ${data.TransactionToDateTime} is before Data.TransactionFromDateTime ${data.TransactionFromDateTime}; the transaction period must not be empty`,
    })
  }
  const record = await deps.sandbox.consents.createAis({
    clientId: token.clientId,
    permissions: data.Permissions,
    expirationDateTime: data.ExpirationDateTime,
    transactionFromDateTime: data.TransactionFromDateTime,
    transactionToDateTime: data.TransactionToDateTime,
    statusReason: [
      { StatusReasonCode: 'U036', StatusReasonDescription: "Awaiting the PSU's authorisation of the consent." },
    ],
  })
  ctx.status = 201
  ctx.body = consentResponse(record, deps)
}

async function getConsent(ctx: Context, params: Record<string, string>, deps: AisDeps): Promise<void> {
  ctx.status = 200
  ctx.body = consentResponse(await ownConsent(ctx, params, deps), deps)
}

async function deleteConsent(ctx: Context, params: Record<string, string>, deps: AisDeps): Promise<void> {
  const found = await ownConsent(ctx, params, deps)
  // Whatever its status now (an approval may land meanwhile): the TPP's revocation stands.
  await deps.sandbox.consents.setStatus(
    found.consentId,
    AIS_CONSENT_STATUSES,
    'CANC',
    [
      {
        StatusReasonCode: 'CUST',
        StatusReasonDescription: 'Deleted by the TPP (DELETE /account-access-consents/{ConsentId}).',
      },
    ],
    { deleted: true },
  )
  ctx.status = 204
  ctx.body = null
}

export const consentRoutes: Route[] = [
  { method: 'POST', path: '/account-access-consents', handler: createConsent },
  { method: 'GET', path: '/account-access-consents/{ConsentId}', handler: getConsent },
  { method: 'DELETE', path: '/account-access-consents/{ConsentId}', handler: deleteConsent },
]
