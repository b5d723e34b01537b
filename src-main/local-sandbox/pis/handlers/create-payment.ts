import type { Context } from 'koa'
import type { OBWriteDomestic2 } from '../../../plumbing/ob-wire/payment-initiation.ts'
import { isoDateTime } from '../../clock.ts'
import type { PisConsentRecord } from '../../consents/consent-store.ts'
import { bodyHash, idempotencyClaim } from '../store/idempotency-store.ts'
import { newPayment, type PaymentRecord } from '../store/payment-store.ts'
import { ObApiError } from '../../http/ob-error.ts'
import { requireAccessToken } from '../../resource/require-token.ts'
import { hasFundsFor } from '../funds/available-funds.ts'
import { parseJsonBody, readIdempotencyKey, requireMutualTls } from '../http/request-checks.ts'
import type { PisDeps } from '../pis-deps.ts'
import { postPayment } from '../posting/post-payment.ts'
import { paymentResponse } from '../responses/payment-response.ts'
import { cutOffMs } from '../rules/cut-off.ts'
import { firstDifference } from '../rules/first-difference.ts'
import { validateRequestBody } from '../schema/validate-request.ts'
import { consentNotAuthorised } from './consent-status-error.ts'
import { idempotencyConflict } from './idempotency-conflict.ts'
import { ownedConsent } from './owned-resources.ts'
import { readSignedBody } from './signed-request.ts'
import { requireTokenForConsent } from './token-for-consent.ts'
import { checked } from '../../conformance/probe.ts'
import { requireAccept, requireJsonContentType } from '../../resource/media-types.ts'

/** 400 `U008` unless Initiation and Risk deep-equal the consent's, naming the first differing path. */
function requireMatchesConsent(request: OBWriteDomestic2, consent: PisConsentRecord): void {
  const diff =
    firstDifference(consent.data.Initiation, request.Data.Initiation, 'Data.Initiation') ??
    firstDifference(consent.risk, request.Risk, 'Risk')
  if (diff) {
    throw new ObApiError(400, {
      code: 'U008',
      path: diff,
      message: `${diff} differs from the consent ${consent.consentId}: the payment's Initiation and Risk must be exactly the consent's (send them as the consent response returned them)`,
    })
  }
}

/** The three ways a payment request is answered: 201 with a payment, the first answer again, or 400 for another body. */
function answers(ctx: Context, deps: PisDeps, key: string) {
  const { psus, clock, addresses } = deps.sandbox
  const respond = (payment: PaymentRecord) => {
    ctx.status = 201
    ctx.body = paymentResponse({ payment, nowMs: clock.nowMs(), psus, baseUrl: addresses.baseUrl })
  }
  const replay = (payment: PaymentRecord | undefined, resourceId: string) => {
    if (!payment)
      throw new ObApiError(400, {
        code: 'U011',
        message: `the payment ${resourceId} created with this x-idempotency-key no longer exists`,
      })
    respond(payment)
  }
  const conflict = (resourceId: string, firstUsedAtMs: number) =>
    checked(ctx, 'idempotency.reuse', () => {
      throw idempotencyConflict(key, 'domestic payment', resourceId, firstUsedAtMs)
    })
  return { respond, replay, conflict }
}

/** 409 `U029`: the consent was consumed by an earlier payment. */
const consumedError = (consentId: string, existing: PaymentRecord | undefined) =>
  new ObApiError(409, {
    code: 'U029',
    path: 'Data.ConsentId',
    message: `consent ${consentId} is COND (consumed, U038): domestic payment ${existing?.domesticPaymentId ?? '(unknown)'} was already created with it. A consent pays once; to retry the same request resend it with its original x-idempotency-key`,
  })

/** 400 unless the authorised consent is before its CutOffDateTime and has its debtor account; gives that account. */
function payableFrom(consent: PisConsentRecord, nowMs: number): string {
  const cutOff = cutOffMs(consent.creationDateTime)
  if (nowMs > cutOff) {
    throw new ObApiError(400, {
      code: 'U012',
      message: `consent ${consent.consentId} passed its CutOffDateTime ${isoDateTime(new Date(cutOff))} (sandbox time is ${isoDateTime(new Date(nowMs))}); create and authorise a new consent`,
    })
  }
  if (!consent.debtorAccountId) {
    throw new ObApiError(400, {
      code: 'U009',
      message: `consent ${consent.consentId} is AUTH but no debtor account was recorded at authorisation; authorise a new consent`,
    })
  }
  return consent.debtorAccountId
}

/** The new payment: `RCVD`, or `RJCT` with `AM04` when the debtor account cannot cover it. */
async function paymentFor(
  deps: PisDeps,
  request: OBWriteDomestic2,
  consent: PisConsentRecord,
  made: { clientId: string; nowMs: number },
): Promise<PaymentRecord> {
  const debtorAccountId = payableFrom(consent, made.nowMs)
  const amount = request.Data.Initiation.InstructedAmount.Amount
  const funded = await hasFundsFor(debtorAccountId, amount, deps.funds)
  return newPayment({
    consentId: consent.consentId,
    clientId: made.clientId,
    createdAtMs: made.nowMs,
    initiation: request.Data.Initiation,
    debtorAccountId,
    readRefundAccount: consent.data.ReadRefundAccount === 'Yes',
    ...(funded
      ? {}
      : {
          rejection: {
            code: 'AM04',
            description: `Insufficient funds: the debtor account cannot cover ${amount} GBP.`,
          },
        }),
  })
}

/**
 * POST /domestic-payments: authorisation-code token for the consent, signed body, idempotency key.
 * The consent must be `AUTH`, before its CutOffDateTime, with Initiation and Risk unchanged. Creates
 * the payment (`RCVD`, or `RJCT` with `AM04` when funds are short), posts an accepted one on its debtor
 * account's AIS ledger (post-payment.ts), consumes the consent (`COND`) and answers 201
 * `OBOBWriteDomestic2Response5`. A second payment for a consumed consent is 409 `U029`. The payment, the
 * consent's move to COND and the key are one step of the sandbox store (`createPaymentForConsent`).
 */
export async function createPayment(ctx: Context, deps: PisDeps): Promise<void> {
  requireMutualTls(ctx)
  const token = await requireAccessToken(ctx, deps.auth.tokens, { grant: 'authorization_code', scope: 'payments' })
  requireAccept(ctx)
  requireJsonContentType(ctx)
  const key = readIdempotencyKey(ctx)
  const body = await readSignedBody(ctx, deps, token)
  const { store, clock } = deps.sandbox
  const { respond, replay, conflict } = answers(ctx, deps, key)

  // A key seen before answers before the request is judged again: the first answer, or 400 for another body.
  const claim = idempotencyClaim(token.clientId, 'domestic-payments', key, body, clock.nowMs())
  const seen = await store.idempotencyRecord(claim)
  if (seen && seen.bodySha256 !== bodyHash(body)) return conflict(seen.resourceId, seen.createdAtMs)
  checked(ctx, 'idempotency.reuse', () => undefined)
  if (seen) return replay(await store.payment(seen.resourceId), seen.resourceId)

  const parsed = checked(ctx, 'schema.request-body', () => {
    const json = parseJsonBody(body)
    validateRequestBody('payment', json)
    return json
  })
  const request = parsed as OBWriteDomestic2
  const consentId = request.Data.ConsentId
  const consent = await ownedConsent(deps, consentId, token.clientId, 'Data.ConsentId')
  checked(ctx, 'token.use', () => requireTokenForConsent(token, consentId))
  if (consent.status === 'COND') {
    // The same request may have won since its key was looked up above (another instance on a shared store, or
    // an await between): the key and the consent's COND are written in one transaction, so it is there now.
    const won = await store.idempotencyRecord(claim)
    if (won && won.bodySha256 === bodyHash(body)) return replay(await store.payment(won.resourceId), won.resourceId)
  }
  const existing = consent.status === 'COND' ? await store.paymentByConsent(consentId) : undefined
  checked(ctx, 'consent.status', () => {
    if (consent.status === 'COND') throw consumedError(consentId, existing)
    if (consent.status !== 'AUTH') throw consentNotAuthorised(consent, 'a payment')
  })
  requireMatchesConsent(request, consent)
  const now = clock.nowMs()
  const payment = await paymentFor(deps, request, consent, { clientId: token.clientId, nowMs: now })
  // One step in the store: the key, at most one payment per consent, the consent still AUTH, then the
  // payment, the consent consumed (COND) and the key remembered. A concurrent request that lost the race
  // gets the winner's payment (same key and body) or the consent's new state.
  const outcome = await store.createPaymentForConsent({
    claim: idempotencyClaim(token.clientId, 'domestic-payments', key, body, now),
    payment,
    consumed: {
      statusUpdateDateTime: clock.now().toISOString(),
      statusReason: [
        {
          StatusReasonCode: 'U038',
          StatusReasonDescription: `Consumed by domestic payment ${payment.domesticPaymentId}.`,
        },
      ],
    },
  })
  switch (outcome.kind) {
    case 'replay':
      return replay(outcome.payment, outcome.resourceId)
    case 'conflict':
      return conflict(outcome.resourceId, outcome.firstUsedAtMs)
    case 'consumed':
      throw consumedError(consentId, outcome.payment)
    case 'not-authorised':
      if (!outcome.consent)
        throw new ObApiError(400, { code: 'U011', message: `consent ${consentId} no longer exists` })
      throw consentNotAuthorised(outcome.consent as PisConsentRecord, 'a payment')
  }
  // An accepted payment is a (pending) transaction on its debtor account in AIS from now on.
  postPayment(deps.bank, outcome.payment)
  respond(outcome.payment)
}
