import type { ConsentRecord, StatusReason } from '../consents/consent-store.ts'
import type { PaymentRecord } from '../pis/store/payment-store.ts'
import type { BankDocuments } from './bank-documents.ts'
import type { ConformanceStore } from './conformance-store.ts'
import type { FaultRuleStore } from './fault-rule-store.ts'
import type { OidcModelStore } from './oidc-models.ts'

/**
 * The sandbox's state, as one interface of domain operations (not tables, not CRUD): every part of the
 * sandbox reads and changes consents, payments, idempotency keys, PSU-absent counters, registration `jti`s
 * and the clock offset through it. The compound operations (a payment for a consent, a counted access, a
 * status change) are single methods, so each backend makes them atomic its own way: the embedded backend
 * (`embedded-store.ts`) by running each one to the end without awaiting inside one process; a database
 * backend by a transaction. One contract test suite runs against every backend
 * (`test/unit/local-sandbox/store/sandbox-store.contract.ts`).
 */
export interface SandboxStore {
  /** `embedded` (the data directory's files) or the backend named by `--store`. */
  readonly backend: string
  /** The bank's identity (PKI, signing keys, cookie keys, the directory's TPPs): see bank-documents.ts. */
  readonly documents: BankDocuments

  /** The clock offset (ms, never negative). */
  clockOffset(): Promise<number>
  /** Adds `ms` (non-negative) to the offset and returns the new offset: `offset = offset + ms`, atomically. */
  advanceClock(ms: number): Promise<number>
  /** Raises the offset to at least `ms` (the clock only moves forward) and returns the offset now in force. */
  raiseClockOffset(ms: number): Promise<number>

  /** Stores a new consent (its id is new). */
  insertConsent(record: ConsentRecord): Promise<void>
  consent(consentId: string): Promise<ConsentRecord | undefined>
  /**
   * Compare-and-set: applies `change` only while the consent's status is one of `from`, atomically with
   * that check; the consent as stored afterwards either way (`changed` says which).
   */
  changeConsent(consentId: string, from: readonly string[], change: ConsentChange): Promise<ConsentChangeOutcome>

  /**
   * Creates a PIS consent unless `claim` (client, endpoint `domestic-payment-consents`, key) was used in
   * its window: then the first request's consent (`replay`, same body) or `conflict` (another body).
   */
  createConsentOnce(claim: IdempotencyClaim, record: ConsentRecord): Promise<IdempotentOutcome<ConsentRecord>>
  /** The live record of an idempotency key, if any (before a request is validated, to replay early). */
  idempotencyRecord(claim: IdempotencyClaim): Promise<IdempotencyRecord | undefined>

  /**
   * The payment for a consent, with every rule that concurrent requests could break checked inside:
   * the key `claim` (replay of the first answer with the same body, `conflict` with another), at most one
   * payment per consent (`consumed`, with the payment that consumed it), the consent still `AUTH`
   * (`not-authorised`, with its current state). On success the payment is stored, the consent moves to
   * `COND` with `consumed` as its status fields and the key is remembered, all at once.
   */
  createPaymentForConsent(input: PaymentForConsent): Promise<PaymentOutcome>
  payment(domesticPaymentId: string): Promise<PaymentRecord | undefined>
  paymentByConsent(consentId: string): Promise<PaymentRecord | undefined>
  /** Every payment, oldest first. */
  payments(): Promise<PaymentRecord[]>
  /** Every payment debited from `accountId`. */
  paymentsFromAccount(accountId: string): Promise<PaymentRecord[]>
  /** How many payments (rejected ones included) each of `accountIds` is the debtor of, in one look. */
  paymentCounts(accountIds: readonly string[]): Promise<Map<string, number>>

  /**
   * Counts one PSU-absent access under `key` at `nowMs` unless `limit` accesses are already in the window
   * ending at `nowMs` (then `allowed: false` and the oldest access counted). A `continuation` (a later page
   * of one access) is free while an access is in the window, and is not counted.
   */
  countPsuAbsentAccess(key: string, quota: PsuAbsentQuota): Promise<PsuAbsentOutcome>
  /** Accesses counted under `key` in the window ending at `nowMs`. */
  psuAbsentUsed(key: string, nowMs: number, windowMs: number): Promise<number>

  /**
   * Records registration JWT id `jti` of `softwareId` until `expSeconds`; false when it was already
   * recorded and has not expired (a replay), atomically with the check.
   */
  claimRegistrationJti(softwareId: string, jti: string, expSeconds: number, nowSeconds: number): Promise<boolean>

  /** oidc-provider's models: clients, grants, tokens, codes, sessions, interactions, replay detection. */
  readonly oidc: OidcModelStore

  /**
   * Why the store cannot serve now, one sentence per problem (unreachable, schema behind or ahead of this
   * instance's migrations); empty when it can. Asked by `GET /readyz`.
   */
  readiness(): Promise<string[]>

  /** Fault rules with their `skip`/`times` counts (embedded: in memory; a database: shared by every instance). */
  readonly faults: FaultRuleStore

  /** Conformance records per client (embedded: in memory; a database: shared by every instance). */
  readonly conformance: ConformanceStore

  /** Releases what the backend holds (files, connections). */
  close(): Promise<void>
}

/** The fields a status change may set (the others stay; `statusReason: null` removes the reasons). */
export interface ConsentChange {
  status?: ConsentRecord['status']
  statusUpdateDateTime?: string
  statusReason?: StatusReason[] | null
  psuId?: string
  authorisedAtMs?: number
  /** AIS: the accounts the PSU selected. */
  accountIds?: string[]
  /** PIS: the account the payment is taken from. */
  debtorAccountId?: string
  /** AIS: set by DELETE. */
  deleted?: boolean
}

export type ConsentChangeOutcome =
  { changed: true; consent: ConsentRecord } | { changed: false; consent: ConsentRecord | undefined }

/** The endpoints that take `x-idempotency-key`; keys are scoped per client and per endpoint. */
export type IdempotentEndpoint = 'domestic-payment-consents' | 'domestic-payments'

/** One use of an idempotency key: who, where, with which body, when (sandbox ms), and how long keys live. */
export interface IdempotencyClaim {
  clientId: string
  endpoint: IdempotentEndpoint
  key: string
  /** SHA-256 (hex) of the exact request body bytes. */
  bodySha256: string
  nowMs: number
  windowMs: number
}

export interface IdempotencyRecord {
  clientId: string
  endpoint: IdempotentEndpoint
  key: string
  bodySha256: string
  /** The resource the first request created (ConsentId or DomesticPaymentId). */
  resourceId: string
  createdAtMs: number
}

export type IdempotentOutcome<T> =
  | { kind: 'created'; value: T }
  | { kind: 'replay'; resourceId: string }
  | { kind: 'conflict'; resourceId: string; firstUsedAtMs: number }

export interface PaymentForConsent {
  claim: IdempotencyClaim
  payment: PaymentRecord
  /** The consent's status fields once the payment consumed it. */
  consumed: Pick<ConsentRecord, 'statusUpdateDateTime' | 'statusReason'>
}

export type PaymentOutcome =
  | { kind: 'created'; payment: PaymentRecord }
  | { kind: 'replay'; payment: PaymentRecord | undefined; resourceId: string }
  | { kind: 'conflict'; resourceId: string; firstUsedAtMs: number }
  | { kind: 'consumed'; payment: PaymentRecord | undefined }
  | { kind: 'not-authorised'; consent: ConsentRecord | undefined }

export interface PsuAbsentQuota {
  nowMs: number
  limit: number
  windowMs: number
  continuation: boolean
}

export type PsuAbsentOutcome = { allowed: true } | { allowed: false; oldestMs: number }
