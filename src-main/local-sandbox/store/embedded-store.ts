import { join, resolve } from 'node:path'
import type { ConsentRecord } from '../consents/consent-store.ts'
import type { PaymentRecord } from '../pis/store/payment-store.ts'
import { FileBankDocuments } from './bank-documents.ts'
import { MemoryConformance } from './conformance-store.ts'
import { EmbeddedOidcModels } from './embedded-oidc-models.ts'
import { MemoryFaultRules } from './fault-rule-store.ts'
import { JournaledMap } from './journaled-map.ts'
import { JsonFile } from './json-file.ts'
import type {
  ConsentChange,
  ConsentChangeOutcome,
  IdempotencyClaim,
  IdempotencyRecord,
  IdempotentOutcome,
  PaymentForConsent,
  PaymentOutcome,
  PsuAbsentOutcome,
  PsuAbsentQuota,
  SandboxStore,
} from './sandbox-store.ts'
import { applyConsentChange, idempotencyId, idempotencyLive, idempotencyRecordOf, inWindow } from './store-rules.ts'

/** Keys and counters are dropped from a snapshot once older than this (the longest window, 24 h). */
const DAY_MS = 24 * 60 * 60 * 1000

/** Where the embedded backend keeps each part, under the data directory (the files the sandbox always wrote). */
export interface EmbeddedStorePaths {
  /** `state/`: consents, payments, idempotency keys, PSU-absent counters, clock offset. */
  state: string
  /** `auth/`: registration `jti`s, and oidc-provider's models in `auth/oidc/`. */
  auth: string
  /** The data directory, whose files are the bank documents (default: the folder holding `state/`). */
  root?: string
}

/**
 * The default backend: the data directory's files, for one process. Each part is a JournaledMap (a
 * snapshot plus a journal line per change, on disk before the change is answered); the clock offset is
 * `state/clock.json`. Every method runs to its end without awaiting, so in one Node process each
 * compound operation is atomic; two processes must not share one data directory (use a database backend).
 */
export class EmbeddedStore implements SandboxStore {
  readonly backend = 'embedded'
  readonly documents: FileBankDocuments
  readonly #clockFile: JsonFile<{ offsetMs: number }>
  #offsetMs: number
  readonly #consents: JournaledMap<ConsentRecord>
  readonly #payments: JournaledMap<PaymentRecord>
  readonly #keys: JournaledMap<IdempotencyRecord>
  readonly #psuAbsent: JournaledMap<number[]>
  readonly #jtis: JournaledMap<Record<string, number>>
  readonly oidc: EmbeddedOidcModels
  /** In memory, as in one process's run: not kept across restarts. */
  readonly faults = new MemoryFaultRules()
  readonly conformance = new MemoryConformance()

  constructor(paths: EmbeddedStorePaths) {
    this.documents = new FileBankDocuments(paths.root ?? resolve(paths.state, '..'))
    this.#clockFile = new JsonFile(join(paths.state, 'clock.json'), () => ({ offsetMs: 0 }))
    this.#offsetMs = this.#clockFile.read().offsetMs
    const now = () => Date.now() + this.#offsetMs
    this.#consents = new JournaledMap(join(paths.state, 'consents.json'))
    this.#payments = new JournaledMap(join(paths.state, 'pis-payments.json'))
    this.#keys = new JournaledMap(join(paths.state, 'pis-idempotency.json'), {
      keep: (r) => now() - r.createdAtMs < DAY_MS,
    })
    this.#psuAbsent = new JournaledMap(join(paths.state, 'ais-psu-absent.json'), {
      keep: (times) => times.some((t) => t > now() - DAY_MS),
    })
    this.#jtis = new JournaledMap(join(paths.auth, 'registration-jti.json'), {
      keep: (jtis) => Object.values(jtis).some((exp) => exp * 1000 > Date.now()),
    })
    this.oidc = new EmbeddedOidcModels(join(paths.auth, 'oidc'))
  }

  async clockOffset(): Promise<number> {
    return this.#offsetMs
  }

  async advanceClock(ms: number): Promise<number> {
    return this.#setOffset(this.#offsetMs + ms)
  }

  async raiseClockOffset(ms: number): Promise<number> {
    return ms > this.#offsetMs ? this.#setOffset(ms) : this.#offsetMs
  }

  #setOffset(offsetMs: number): number {
    this.#clockFile.write({ offsetMs })
    this.#offsetMs = offsetMs
    return offsetMs
  }

  async insertConsent(record: ConsentRecord): Promise<void> {
    this.#consents.set(record.consentId, record)
  }

  async consent(consentId: string): Promise<ConsentRecord | undefined> {
    return this.#consents.get(consentId)
  }

  async changeConsent(
    consentId: string,
    from: readonly string[],
    change: ConsentChange,
  ): Promise<ConsentChangeOutcome> {
    const record = this.#consents.get(consentId)
    if (!record || !from.includes(record.status)) return { changed: false, consent: record }
    const next = applyConsentChange(record, change)
    this.#consents.set(consentId, next)
    return { changed: true, consent: next }
  }

  async createConsentOnce(claim: IdempotencyClaim, record: ConsentRecord): Promise<IdempotentOutcome<ConsentRecord>> {
    const seen = this.#liveKey(claim)
    if (seen) return seen
    this.#consents.set(record.consentId, record)
    this.#keys.set(idempotencyId(claim), idempotencyRecordOf(claim, record.consentId))
    return { kind: 'created', value: record }
  }

  async idempotencyRecord(claim: IdempotencyClaim): Promise<IdempotencyRecord | undefined> {
    const record = this.#keys.get(idempotencyId(claim))
    return record && idempotencyLive(record, claim) ? record : undefined
  }

  #liveKey(claim: IdempotencyClaim): Exclude<IdempotentOutcome<never>, { kind: 'created' }> | undefined {
    const record = this.#keys.get(idempotencyId(claim))
    if (!record || !idempotencyLive(record, claim)) return undefined
    if (record.bodySha256 === claim.bodySha256) return { kind: 'replay', resourceId: record.resourceId }
    return { kind: 'conflict', resourceId: record.resourceId, firstUsedAtMs: record.createdAtMs }
  }

  async createPaymentForConsent(input: PaymentForConsent): Promise<PaymentOutcome> {
    const seen = this.#liveKey(input.claim)
    if (seen?.kind === 'replay') return { ...seen, payment: this.#payments.get(seen.resourceId) }
    if (seen) return seen
    const consentId = input.payment.consentId
    const existing = this.#byConsent(consentId)
    if (existing) return { kind: 'consumed', payment: existing }
    const consent = this.#consents.get(consentId)
    if (!consent || consent.status !== 'AUTH') return { kind: 'not-authorised', consent }
    this.#payments.set(input.payment.domesticPaymentId, input.payment)
    this.#consents.set(consentId, applyConsentChange(consent, { status: 'COND', ...input.consumed }))
    this.#keys.set(idempotencyId(input.claim), idempotencyRecordOf(input.claim, input.payment.domesticPaymentId))
    return { kind: 'created', payment: input.payment }
  }

  async payment(domesticPaymentId: string): Promise<PaymentRecord | undefined> {
    return this.#payments.get(domesticPaymentId)
  }

  async paymentByConsent(consentId: string): Promise<PaymentRecord | undefined> {
    return this.#byConsent(consentId)
  }

  #byConsent(consentId: string): PaymentRecord | undefined {
    for (const p of this.#payments.entries.values()) if (p.consentId === consentId) return p
    return undefined
  }

  async payments(): Promise<PaymentRecord[]> {
    return [...this.#payments.entries.values()].sort((a, b) => a.createdAtMs - b.createdAtMs)
  }

  async paymentsFromAccount(accountId: string): Promise<PaymentRecord[]> {
    return (await this.payments()).filter((p) => p.debtorAccountId === accountId)
  }

  async paymentCounts(accountIds: readonly string[]): Promise<Map<string, number>> {
    const counts = new Map(accountIds.map((id) => [id, 0]))
    for (const p of this.#payments.entries.values())
      if (p.debtorAccountId !== undefined && counts.has(p.debtorAccountId))
        counts.set(p.debtorAccountId, counts.get(p.debtorAccountId)! + 1)
    return counts
  }

  async countPsuAbsentAccess(key: string, quota: PsuAbsentQuota): Promise<PsuAbsentOutcome> {
    const recent = inWindow(this.#psuAbsent.get(key) ?? [], quota.nowMs, quota.windowMs)
    if (quota.continuation && recent.length > 0) return { allowed: true }
    if (recent.length >= quota.limit) return { allowed: false, oldestMs: recent[0]! }
    this.#psuAbsent.set(key, [...recent, quota.nowMs])
    return { allowed: true }
  }

  async psuAbsentUsed(key: string, nowMs: number, windowMs: number): Promise<number> {
    return inWindow(this.#psuAbsent.get(key) ?? [], nowMs, windowMs).length
  }

  async claimRegistrationJti(softwareId: string, jti: string, expSeconds: number, nowSeconds: number) {
    const jtis = this.#jtis.get(softwareId) ?? {}
    const exp = jtis[jti]
    if (exp !== undefined && exp > nowSeconds) return false
    const live = Object.entries(jtis).filter(([, e]) => e > nowSeconds)
    this.#jtis.set(softwareId, { ...Object.fromEntries(live), [jti]: expSeconds })
    return true
  }

  /** The files are open in this process: nothing to reach. */
  async readiness(): Promise<string[]> {
    return []
  }

  async close(): Promise<void> {}
}
