/**
 * The P1/P2 journey, run once with a new client registration:
 *
 * discovery, registration (DCR 3.2, private_key_jwt, `sandbox_profile: strict-headless`), discovery and
 * JWKS (the AIS flow's own, as the console's flows start), client-credentials token (accounts), AIS consent, headless authorisation (PS256 request object),
 * ID token checks, code exchange, accounts, balances of each account, every page of each account's
 * transactions (PSU present, within the SCA window: the full history, 1,000+ transactions);
 * discovery and JWKS again (each of the console's flows starts by reading them: the calls stay equal),
 * client-credentials token (payments), signed domestic payment consent, headless authorisation, code
 * exchange, funds confirmation, signed domestic payment, payment status.
 *
 * Between the payment and its status read the sandbox clock moves SETTLE_SECONDS forward (the payment's
 * timeline reaches ACSC), outside the timed part: the status is final on the first read.
 */
import { randomUUID } from 'node:crypto'
import { mainThreadCpuMs } from '../lib/proc-cpu.ts'
import { AIS_PATH, JourneySession, PIS_PATH, json, unexpected, type JourneyIo, type SandboxTarget } from './session.ts'

export interface JourneyTarget extends SandboxTarget {
  /** Runs between the payment and its status read, outside the timed part (moves the sandbox clock). */
  beforeStatus(): Promise<void>
}

export interface JourneyResult {
  /** Wall time of the journey without `beforeStatus`, ms. */
  ms: number
  /** The timed part as `performance.now()` spans (before and after `beforeStatus`): what `ms` adds up. */
  timed: Array<[number, number]>
  /**
   * CPU time of the thread that ran the journey (its main thread) in the timed part, ms: the client's own work
   * on the path, with neither waits for the network or the disk nor its other threads; undefined where the
   * platform does not tell it (see `mainThreadCpuMs`).
   */
  timedCpuMs?: number
  /** HTTP exchanges made. */
  calls: number
  accounts: number
  transactions: number
  pages: number
  paymentStatus: string
  /** Signatures checked (ID tokens and PIS response signatures); 0 for a stack that verifies none. */
  verified: number
  /** The engine's: the work it held for a quiet moment, done after the journey (untimed), ms. */
  afterMs?: number
  /** The engine's: how long the untimed clock move took (its requests paused meanwhile), ms. */
  clockMoveMs?: number
}

/** One instant of a journey, on both its clocks: `performance.now()` and its thread's CPU time (ms). */
export interface JourneyMark {
  wall: number
  cpu: number | undefined
}

export function journeyMark(): JourneyMark {
  return { wall: performance.now(), cpu: mainThreadCpuMs() }
}

/**
 * The timed part of a journey from its four marks: its start, before and after the untimed clock move
 * (`beforeStatus`), its end.
 */
export function timedPart(
  start: JourneyMark,
  beforeMove: JourneyMark,
  afterMove: JourneyMark,
  end: JourneyMark,
): Pick<JourneyResult, 'ms' | 'timed' | 'timedCpuMs'> {
  const cpu = [start, beforeMove, afterMove, end].map((m) => m.cpu)
  return {
    ms: beforeMove.wall - start.wall + (end.wall - afterMove.wall),
    timed: [
      [start.wall, beforeMove.wall],
      [afterMove.wall, end.wall],
    ],
    ...(cpu.every((c) => c !== undefined) ? { timedCpuMs: cpu[1]! - cpu[0]! + (cpu[3]! - cpu[2]!) } : {}),
  }
}

/** Sandbox seconds that take a payment from RCVD to ACSC. */
export const SETTLE_SECONDS = 10
/** Fewer transactions than this and the journey does not measure what P1 is about. */
export const MIN_TRANSACTIONS = 1000

/**
 * A domestic payment consent body (OBWriteDomesticConsent4): £1.00 by Faster Payments. Every journey's payment
 * is debited from the PSU's account (the sandbox posts it to AIS): a run of ~110 journeys stays well within funds.
 */
export function paymentConsentBody(): { Data: { Initiation: Record<string, unknown> }; Risk: Record<string, unknown> } {
  const ref = randomUUID().slice(0, 8).toUpperCase()
  return {
    Data: {
      Initiation: {
        InstructionIdentification: `INSTR-${ref}`,
        EndToEndIdentification: `E2E-${ref}`,
        LocalInstrument: 'UK.OBIE.FPS',
        InstructedAmount: { Amount: '1.00', Currency: 'GBP' },
        CreditorAccount: {
          SchemeName: 'UK.OBIE.SortCodeAccountNumber',
          Identification: '08080021325698',
          Name: 'ACME Services Ltd',
        },
        RemittanceInformation: { Unstructured: ['Invoice 2026-118'] },
      },
    },
    Risk: {
      PaymentContextCode: 'EcommerceMerchantInitiatedPayment',
      MerchantCategoryCode: '5967',
      ContractPresentIndicator: false,
    },
  }
}

/** Runs the whole journey once. Throws, naming the step, on any unexpected answer. */
export async function runJourney(io: JourneyIo, target: JourneyTarget): Promise<JourneyResult> {
  const s = new JourneySession(io, target)
  const base = target.baseUrl
  const t0 = journeyMark()

  // The registration reads the discovery document (its registration endpoint).
  await s.discover(false)
  await s.register()

  // AIS: a flow of its own, which reads the discovery document and the bank's keys.
  await s.discover()
  const ccAccounts = await s.token(
    { grant_type: 'client_credentials', scope: 'accounts' },
    'client-credentials token (accounts)',
  )
  const aisConsentId = await s.aisConsent(ccAccounts)
  const aisCode = await s.authorise(aisConsentId, 'openid accounts')
  const aisToken = await s.token(
    { grant_type: 'authorization_code', code: aisCode, redirect_uri: s.redirectUri },
    'code exchange (AIS)',
  )
  const accounts = await s.http({
    method: 'GET',
    url: `${base}${AIS_PATH}/accounts`,
    headers: s.dataHeaders(aisToken),
    mtls: true,
  })
  if (accounts.status !== 200) unexpected('accounts', accounts)
  const accountIds = (json(accounts).Data.Account as Array<{ AccountId: string }>).map((a) => a.AccountId)
  for (const id of accountIds) {
    const res = await s.http({
      method: 'GET',
      url: `${base}${AIS_PATH}/accounts/${encodeURIComponent(id)}/balances`,
      headers: s.dataHeaders(aisToken),
      mtls: true,
    })
    if (res.status !== 200) unexpected(`balances of ${id}`, res)
  }
  let transactions = 0
  let pages = 0
  for (const id of accountIds) {
    let next: string | undefined = `${base}${AIS_PATH}/accounts/${encodeURIComponent(id)}/transactions`
    while (next) {
      const res = await s.http({ method: 'GET', url: next, headers: s.dataHeaders(aisToken), mtls: true })
      if (res.status !== 200) unexpected(`transactions of ${id}, page ${pages + 1}`, res)
      const page = json(res)
      transactions += (page.Data.Transaction as unknown[]).length
      next = page.Links?.Next
      if (++pages > 1000) throw new Error('more than 1000 transaction pages: Links.Next loops')
    }
  }
  if (transactions < MIN_TRANSACTIONS)
    throw new Error(`the accounts hold ${transactions} transactions, fewer than the ${MIN_TRANSACTIONS} P1 is about`)

  // PIS: a flow of its own, which reads the discovery document and the bank's keys again.
  await s.discover()
  const ccPayments = await s.token(
    { grant_type: 'client_credentials', scope: 'payments' },
    'client-credentials token (payments)',
  )
  const consentBody = paymentConsentBody()
  const pisConsentId = (
    await s.signedPost('/domestic-payment-consents', ccPayments, consentBody, 'domestic payment consent')
  ).Data.ConsentId as string
  const pisCode = await s.authorise(pisConsentId, 'openid payments')
  const pisToken = await s.token(
    { grant_type: 'authorization_code', code: pisCode, redirect_uri: s.redirectUri },
    'code exchange (PIS)',
  )
  const funds = await s.http({
    method: 'GET',
    url: `${base}${PIS_PATH}/domestic-payment-consents/${encodeURIComponent(pisConsentId)}/funds-confirmation`,
    headers: { authorization: `Bearer ${pisToken}`, accept: 'application/json', 'x-fapi-interaction-id': randomUUID() },
    mtls: true,
  })
  if (funds.status !== 200) unexpected('funds confirmation', funds)
  await s.verifyResponse(funds, 'funds confirmation')
  const payment = await s.signedPost(
    '/domestic-payments',
    pisToken,
    { Data: { ConsentId: pisConsentId, Initiation: consentBody.Data.Initiation }, Risk: consentBody.Risk },
    'domestic payment',
  )
  const paymentId = payment.Data.DomesticPaymentId as string

  const t1 = journeyMark()
  await target.beforeStatus()
  const t2 = journeyMark()

  const status = await s.http({
    method: 'GET',
    url: `${base}${PIS_PATH}/domestic-payments/${encodeURIComponent(paymentId)}`,
    headers: {
      authorization: `Bearer ${ccPayments}`,
      accept: 'application/json',
      'x-fapi-interaction-id': randomUUID(),
    },
    mtls: true,
  })
  if (status.status !== 200) unexpected('payment status', status)
  // The engine's status step checks the answer's signature too (as it does the consent's, funds' and payment's).
  await s.verifyResponse(status, 'payment status')
  const t3 = journeyMark()

  return {
    ...timedPart(t0, t1, t2, t3),
    calls: s.calls,
    accounts: accountIds.length,
    transactions,
    pages,
    paymentStatus: json(status).Data.Status,
    verified: s.verified,
  }
}
