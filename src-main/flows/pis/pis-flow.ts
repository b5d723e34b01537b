import { randomUUID } from 'node:crypto'
import type { PisFlowInput } from '../../contract/api.ts'
import { AppError, isAppError } from '../../core/app-error.ts'
import { bearerGet } from '../common/bank-get.ts'
import {
  authorisationUrlStep,
  captureStep,
  codeExchangeStep,
  CODE_EXCHANGE_STEP,
  idTokenStep,
} from '../common/authorisation.ts'
import { discoveryStep, DISCOVERY_STEP, type Discovery } from '../common/discovery.ts'
import { obAnswerShape, readBankAnswer } from '../common/bank-answer.ts'
import { clientCredentialsStep, CLIENT_CREDENTIALS_STEP, type TokenSet } from '../common/tokens.ts'
import type { FlowContext, FlowResponse } from '../flow-context.ts'
import type { StepDefinition, StepScope } from '../step-machine.ts'

export interface PisFlowContext extends FlowContext {
  pis: {
    input: PisFlowInput
    /** How often and how long the status step polls the payment (ms). */
    pollIntervalMs: number
    maxWaitMs: number
    sleep: (ms: number) => Promise<void>
    /**
     * The payment request of this flow, stored before it is first sent: the consent it spends, its
     * idempotency key and the exact body. A re-run of the payment step for the same consent sends these
     * again, so the bank answers the payment it made instead of making a second one.
     */
    payment?: PendingPayment
  }
}

export interface PendingPayment {
  consentId: string
  idempotencyKey: string
  body: string
  /** The payment's id, once an answer named it. */
  domesticPaymentId?: string
}

export const PIS_STEPS = {
  consent: 'payment-consent',
  funds: 'funds-confirmation',
  payment: 'domestic-payment',
  status: 'payment-status',
} as const

/** Final payment statuses: the status step stops on these. */
export const FINAL_PAYMENT_STATUSES = new Set(['ACSC', 'ACCC', 'ACWC', 'ACWP', 'RJCT', 'BLCK'])

const STRING = { type: 'string', minLength: 1 }

/** The parts of each v4.0 answer the PIS steps read. */
const ANSWERS = {
  consent: obAnswerShape('a domestic payment consent (OBWriteDomesticConsentResponse5)', {
    type: 'object',
    required: ['ConsentId', 'Status', 'Initiation'],
    properties: { ConsentId: STRING, Status: STRING, Initiation: { type: 'object' } },
  }),
  funds: obAnswerShape('a funds confirmation (OBWriteFundsConfirmationResponse1)', {
    type: 'object',
    required: ['FundsAvailableResult'],
    properties: {
      FundsAvailableResult: {
        type: 'object',
        required: ['FundsAvailable'],
        properties: { FundsAvailable: { type: 'boolean' } },
      },
    },
  }),
  payment: obAnswerShape('a domestic payment (OBWriteDomesticResponse5)', {
    type: 'object',
    required: ['DomesticPaymentId', 'Status'],
    properties: { DomesticPaymentId: STRING, ConsentId: { type: 'string' }, Status: STRING },
  }),
}

function pisUrl(ctx: FlowContext, path: string): string {
  return `${ctx.environment.baseUrl}${ctx.environment.apiPaths.pis}${path}`
}

/**
 * A signed PIS POST: the exact bytes sent are the bytes signed. `resend`: the idempotency key and body of
 * an earlier send of the same request; the client then retries a lost answer with that same key.
 */
async function signedPost(
  ctx: PisFlowContext,
  scope: StepScope,
  path: string,
  token: string,
  payload: unknown,
  label: string,
  resend?: { idempotencyKey: string; body: string },
): Promise<{ res: FlowResponse; idempotencyKey: string }> {
  const body = resend?.body ?? JSON.stringify(payload)
  const idempotencyKey = resend?.idempotencyKey ?? randomUUID()
  const res = await ctx.http.send({
    method: 'POST',
    url: pisUrl(ctx, path),
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json',
      'x-idempotency-key': idempotencyKey,
      'x-jws-signature': await ctx.signer.detachedJws(body),
      'x-fapi-interaction-id': randomUUID(),
    },
    body,
    label,
    ...(resend ? { retry: true } : {}),
  })
  scope.exchange(res.exchangeId)
  return { res, idempotencyKey }
}

/**
 * Failures of the send itself after which the request may still have reached the bank and been carried
 * out: no answer was read. A later try can fail otherwise than the first (a reset, then a refused or
 * failed handshake on the new connection), so every transport failure counts, not only a reset.
 */
const LOST_ANSWER = new Set([
  'CONNECTION_RESET',
  'TIMEOUT',
  'NETWORK_ERROR',
  'TLS_HANDSHAKE_FAILED',
  'TLS_CLIENT_CERT_REFUSED',
  'CONNECTION_REFUSED',
])

/**
 * After a payment request whose answer never came (or a resend the bank refused): asks the bank what
 * became of it, without sending anything that could pay. The consent says whether it was spent
 * (`COND`: a payment exists); the payment, when its id is known, says its status. Returns the error
 * the step fails with, which says what was found and what to do.
 */
async function lookUpPayment(
  ctx: PisFlowContext,
  scope: StepScope,
  pending: PendingPayment,
  happened: string,
  refusal?: AppError,
): Promise<AppError> {
  const facts: string[] = []
  let consentStatus: string | undefined
  if (scope.has(CLIENT_CREDENTIALS_STEP)) {
    const cc = scope.output<TokenSet>(CLIENT_CREDENTIALS_STEP).accessToken
    try {
      const res = await bearerGet(
        ctx,
        scope,
        pisUrl(ctx, `/domestic-payment-consents/${encodeURIComponent(pending.consentId)}`),
        cc,
        'payment lookup: consent',
      )
      consentStatus =
        res.status === 200 && typeof res.json?.Data?.Status === 'string' ? res.json.Data.Status : undefined
      facts.push(
        consentStatus
          ? `the consent ${pending.consentId} is ${consentStatus}`
          : `reading the consent answered ${res.status}`,
      )
    } catch (err) {
      facts.push(`reading the consent failed too (${isAppError(err) ? err.code : String(err)})`)
    }
    if (pending.domesticPaymentId) {
      try {
        const res = await bearerGet(
          ctx,
          scope,
          pisUrl(ctx, `/domestic-payments/${encodeURIComponent(pending.domesticPaymentId)}`),
          cc,
          'payment lookup: payment',
        )
        facts.push(
          res.status === 200
            ? `payment ${pending.domesticPaymentId} exists, status ${String(res.json?.Data?.Status)}`
            : `reading payment ${pending.domesticPaymentId} answered ${res.status}`,
        )
      } catch (err) {
        facts.push(
          `reading payment ${pending.domesticPaymentId} failed too (${isAppError(err) ? err.code : String(err)})`,
        )
      }
    }
  }
  const paid = consentStatus === 'COND' || consentStatus === 'Consumed'
  const unpaid = consentStatus === 'AUTH' || consentStatus === 'Authorised'
  const found = facts.length
    ? facts.join('; ')
    : 'nothing could be looked up (no client-credentials token in this flow)'
  // A resend the bank refused keeps the bank's own code (OB_ERROR, HTTP_ERROR...); a lost answer is a reset.
  return new AppError(paid ? 'FLOW_CHECK_FAILED' : (refusal?.code ?? 'CONNECTION_RESET'), {
    what: `${happened}. The console looked the payment up: ${found}.`,
    cause: paid
      ? `The consent is spent, so the bank made a payment with it${pending.domesticPaymentId ? '' : ', but its answer (with the payment id) never arrived'}. No second payment was sent.`
      : unpaid
        ? 'The consent is still authorised and unspent: the bank made no payment with it. No second payment was sent.'
        : 'Whether the bank made the payment is not known. No second payment was sent.',
    fix: paid
      ? `Re-run this step: it sends the same request with the same x-idempotency-key (${pending.idempotencyKey}), and the bank answers the payment it made.`
      : `${refusal ? `${refusal.fix} Then re-run` : 'Re-run'} this step: it sends the same request with the same x-idempotency-key (${pending.idempotencyKey}), which cannot pay twice.`,
    details: {
      ...refusal?.details,
      consentId: pending.consentId,
      idempotencyKey: pending.idempotencyKey,
      ...(consentStatus ? { consentStatus } : {}),
      ...(pending.domesticPaymentId ? { domesticPaymentId: pending.domesticPaymentId } : {}),
    },
    ...(refusal?.problems ? { problems: refusal.problems } : {}),
  })
}

async function responseSignatureChecks(ctx: PisFlowContext, scope: StepScope, res: FlowResponse) {
  const discovery = scope.output<Discovery>(DISCOVERY_STEP)
  return ctx.signer.verifyDetachedJws(res.headers['x-jws-signature'], res.text, discovery.jwks_uri)
}

function consentStep(): StepDefinition<PisFlowContext> {
  return {
    id: PIS_STEPS.consent,
    title: 'Domestic payment consent',
    explanation:
      'Creates the domestic payment consent, signed with x-jws-signature over the exact body and sent with an idempotency key.',
    requires: [DISCOVERY_STEP, CLIENT_CREDENTIALS_STEP],
    async run(ctx, scope) {
      const cc = scope.output<TokenSet>(CLIENT_CREDENTIALS_STEP)
      const { initiation, risk } = ctx.pis.input
      const { res, idempotencyKey } = await signedPost(
        ctx,
        scope,
        '/domestic-payment-consents',
        cc.accessToken,
        { Data: { Initiation: initiation }, Risk: risk },
        'domestic payment consent',
      )
      const { Data } = readBankAnswer(res, {
        what: 'Creating the payment consent',
        status: 201,
        shape: ANSWERS.consent,
        fix: "Check the Initiation fields named in the error and that the signing key's kid is on the software statement's JWKS.",
      })
      const consentId = Data.ConsentId as string
      const checks = [
        { name: 'consent status', pass: Data.Status === 'AWAU', expected: 'AWAU', actual: String(Data.Status) },
        ...(await responseSignatureChecks(ctx, scope, res)),
      ]
      return {
        output: { consentId, idempotencyKey, initiation: Data.Initiation },
        summary: `consent ${consentId} ${Data.Status}`,
        checks,
      }
    },
  }
}

function fundsStep(): StepDefinition<PisFlowContext> {
  return {
    id: PIS_STEPS.funds,
    title: 'Funds confirmation',
    explanation: "Asks the bank whether the PSU's account can cover the payment (with the PSU-authorised token).",
    requires: [PIS_STEPS.consent, CODE_EXCHANGE_STEP],
    async run(ctx, scope) {
      const { consentId } = scope.output<{ consentId: string }>(PIS_STEPS.consent)
      const token = scope.output<TokenSet>(CODE_EXCHANGE_STEP).accessToken
      const res = await bearerGet(
        ctx,
        scope,
        pisUrl(ctx, `/domestic-payment-consents/${encodeURIComponent(consentId)}/funds-confirmation`),
        token,
        'funds confirmation',
      )
      const { Data } = readBankAnswer(res, {
        what: 'Confirming funds',
        status: 200,
        shape: ANSWERS.funds,
        fix: 'The consent must be authorised (AUTH) and the token the one from the code exchange.',
      })
      const available = Data.FundsAvailableResult.FundsAvailable === true
      return {
        output: { available },
        summary: available ? 'funds available' : 'funds NOT available',
        checks: [
          {
            name: 'funds available',
            pass: available,
            expected: 'true',
            actual: String(available),
            hint: 'Pay a smaller amount, or from another account.',
          },
          ...(await responseSignatureChecks(ctx, scope, res)),
        ],
      }
    },
  }
}

function paymentStep(): StepDefinition<PisFlowContext> {
  return {
    id: PIS_STEPS.payment,
    title: 'Domestic payment',
    explanation:
      'Submits the payment with the same Initiation and Risk as the consent, signed, with the PSU-authorised token; the consent is consumed.',
    requires: [PIS_STEPS.consent, CODE_EXCHANGE_STEP],
    async run(ctx, scope) {
      const { consentId } = scope.output<{ consentId: string }>(PIS_STEPS.consent)
      const token = scope.output<TokenSet>(CODE_EXCHANGE_STEP).accessToken
      // Stored with the flow before the first send; a re-run for the same consent sends it again as it was.
      const earlier = ctx.pis.payment?.consentId === consentId ? ctx.pis.payment : undefined
      const pending: PendingPayment = earlier ?? {
        consentId,
        idempotencyKey: randomUUID(),
        body: JSON.stringify({
          Data: { ConsentId: consentId, Initiation: ctx.pis.input.initiation },
          Risk: ctx.pis.input.risk,
        }),
      }
      ctx.pis.payment = pending
      let res: FlowResponse
      try {
        // Every send of this payment is retried by the client on a lost answer, with this same key.
        ;({ res } = await signedPost(
          ctx,
          scope,
          '/domestic-payments',
          token,
          undefined,
          earlier ? 'domestic payment (sent again with its first idempotency key)' : 'domestic payment',
          pending,
        ))
      } catch (err) {
        if (!isAppError(err) || !LOST_ANSWER.has(err.code)) throw err
        if (typeof err.details?.exchangeId === 'string') scope.exchange(err.details.exchangeId)
        throw await lookUpPayment(ctx, scope, pending, `The answer to the payment was lost (${err.code}: ${err.what})`)
      }
      let Data: Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any
      try {
        ;({ Data } = readBankAnswer(res, {
          what: earlier ? 'Sending the payment again with its first idempotency key' : 'Submitting the payment',
          status: 201,
          shape: ANSWERS.payment,
          fix: "The Initiation and Risk must equal the consent's, and the consent must be AUTH (not yet used).",
        }))
      } catch (err) {
        // A resend refused (the key expired, the consent changed): say what the bank has, never pay again.
        if (earlier && isAppError(err)) throw await lookUpPayment(ctx, scope, pending, `${err.what} ${err.cause}`, err)
        throw err
      }
      const paymentId = Data.DomesticPaymentId as string
      pending.domesticPaymentId = paymentId
      return {
        output: { domesticPaymentId: paymentId, status: Data.Status },
        summary: `payment ${paymentId} ${Data.Status}`,
        checks: [
          {
            name: 'initial status',
            pass: ['RCVD', 'PDNG', 'ACTC', 'ACSP', 'ACSC'].includes(Data.Status),
            expected: 'RCVD (or later)',
            actual: String(Data.Status),
          },
          ...(await responseSignatureChecks(ctx, scope, res)),
        ],
      }
    },
  }
}

function statusStep(): StepDefinition<PisFlowContext> {
  return {
    id: PIS_STEPS.status,
    title: 'Payment status',
    explanation: "Follows the payment's status (RCVD, then ACSP, then ACSC) until it is final.",
    requires: [PIS_STEPS.payment, CLIENT_CREDENTIALS_STEP],
    async run(ctx, scope) {
      const { domesticPaymentId } = scope.output<{ domesticPaymentId: string }>(PIS_STEPS.payment)
      const cc = scope.output<TokenSet>(CLIENT_CREDENTIALS_STEP).accessToken
      const seen: string[] = []
      const started = Date.now()
      for (;;) {
        const res = await bearerGet(
          ctx,
          scope,
          pisUrl(ctx, `/domestic-payments/${encodeURIComponent(domesticPaymentId)}`),
          cc,
          'payment status',
        )
        const status = String(
          readBankAnswer(res, {
            what: 'Reading the payment status',
            status: 200,
            shape: ANSWERS.payment,
            fix: 'Use a client-credentials token of the client that made the payment.',
          }).Data.Status,
        )
        if (seen.at(-1) !== status) seen.push(status)
        if (FINAL_PAYMENT_STATUSES.has(status)) {
          return {
            output: { domesticPaymentId, status, history: seen },
            summary: `${status} (${seen.join(' → ')})`,
            checks: [
              {
                name: 'final status',
                pass: status !== 'RJCT' && status !== 'BLCK',
                expected: 'ACSC',
                actual: status,
                hint: 'See the StatusReason in the payment resource.',
              },
            ],
          }
        }
        if (Date.now() - started >= ctx.pis.maxWaitMs) {
          throw new AppError('TIMEOUT', {
            what: `The payment stayed ${status} for ${Math.round(ctx.pis.maxWaitMs / 1000)} s.`,
            cause: `Statuses seen: ${seen.join(' → ')}. The bank has not settled it yet.`,
            fix: 'Re-run this step later; in the local sandbox, move its clock forward.',
          })
        }
        await ctx.pis.sleep(ctx.pis.pollIntervalMs)
      }
    },
  }
}

/** The PIS journey of the bank's spec, section 5.6, as explicit steps. */
export function pisFlowSteps(input: PisFlowInput): StepDefinition<PisFlowContext>[] {
  if (!input.initiation || typeof input.initiation !== 'object')
    throw new AppError('INVALID_INPUT', {
      what: 'The payment has no Initiation.',
      cause: 'A domestic payment consent needs Data.Initiation.',
      fix: 'Fill in the amount, creditor account and references.',
    })
  return [
    discoveryStep(),
    clientCredentialsStep('payments'),
    consentStep(),
    authorisationUrlStep({
      scope: 'payments',
      consentStep: PIS_STEPS.consent,
      consentIdOf: (o) => (o as { consentId: string }).consentId,
      via: input.authorisationUrlFrom,
    }),
    captureStep(),
    idTokenStep(),
    codeExchangeStep(),
    fundsStep(),
    paymentStep(),
    statusStep(),
  ] as StepDefinition<PisFlowContext>[]
}

/** A ready-to-send example payment for the sandbox (£10.00 by Faster Payments to a test payee). */
export function examplePayment(): Pick<PisFlowInput, 'initiation' | 'risk'> {
  const ref = randomUUID().slice(0, 8).toUpperCase()
  return {
    initiation: {
      InstructionIdentification: `INSTR-${ref}`,
      EndToEndIdentification: `E2E-${ref}`,
      LocalInstrument: 'UK.OBIE.FPS',
      InstructedAmount: { Amount: '10.00', Currency: 'GBP' },
      CreditorAccount: {
        SchemeName: 'UK.OBIE.SortCodeAccountNumber',
        Identification: '08080021325698',
        Name: 'ACME Services Ltd',
      },
      RemittanceInformation: { Unstructured: ['Invoice 2026-118'] },
    },
    risk: { PaymentContextCode: 'TransferToThirdParty' },
  }
}
