import { randomUUID } from 'node:crypto'
import type { OBRisk1, OBWriteDomesticConsent4 } from '../../plumbing/ob-wire/payment-initiation.ts'
import type { SandboxClock } from '../clock.ts'
import type { ConsentChange, ConsentChangeOutcome, SandboxStore } from '../store/sandbox-store.ts'

/**
 * The consent store: the one place consents live. The resource server's consent endpoints create and
 * read them; the authorisation server reads an intent (`openbanking_intent_id`) to check it exists, is
 * owned by the client and awaits authorisation, then records the PSU's decision here.
 */

export type AisConsentStatus = 'AWAU' | 'AUTH' | 'RJCT' | 'CANC' | 'EXPD'
export const AIS_CONSENT_STATUSES: readonly AisConsentStatus[] = ['AWAU', 'AUTH', 'RJCT', 'CANC', 'EXPD']
export type PisConsentStatus = 'AWAU' | 'AUTH' | 'RJCT' | 'COND'

export interface StatusReason {
  StatusReasonCode: string
  StatusReasonDescription?: string
  Path?: string
}

interface ConsentCommon {
  consentId: string
  clientId: string
  /** ISO date-times in sandbox time. */
  creationDateTime: string
  statusUpdateDateTime: string
  statusReason?: StatusReason[]
  /** The PSU who authorised or rejected it. */
  psuId?: string
  /** Sandbox time (ms) of the PSU's authorisation: the moment of SCA. */
  authorisedAtMs?: number
}

export interface AisConsentRecord extends ConsentCommon {
  kind: 'ais'
  status: AisConsentStatus
  permissions: string[]
  expirationDateTime?: string
  transactionFromDateTime?: string
  transactionToDateTime?: string
  /** Accounts the PSU selected when authorising. */
  accountIds: string[]
  /** Set by DELETE: a GET afterwards answers 400. */
  deleted: boolean
}

export interface PisConsentRecord extends ConsentCommon {
  kind: 'pis'
  status: PisConsentStatus
  /** The request's `Data` as the TPP sent it (Initiation, Authorisation, SCASupportData, ReadRefundAccount). */
  data: OBWriteDomesticConsent4['Data']
  risk: OBRisk1
  /** The account the payment is taken from (the PSU's choice, or the Initiation's DebtorAccount). */
  debtorAccountId?: string
}

export type ConsentRecord = AisConsentRecord | PisConsentRecord

export type NewAisConsent = Omit<
  AisConsentRecord,
  'consentId' | 'creationDateTime' | 'statusUpdateDateTime' | 'status' | 'accountIds' | 'deleted' | 'kind'
>
export type NewPisConsent = Omit<
  PisConsentRecord,
  'consentId' | 'creationDateTime' | 'statusUpdateDateTime' | 'status' | 'kind'
>

/**
 * The consents' rules over the sandbox store: new ids and timestamps in sandbox time, expiry on read,
 * every status move a compare-and-set in the store (so an expiry written on read never overwrites a
 * concurrent revoke, and a PSU's approval never revives a consent the TPP deleted meanwhile).
 */
export class ConsentStore {
  constructor(
    private readonly store: SandboxStore,
    private readonly clock: SandboxClock,
  ) {}

  async createAis(input: NewAisConsent): Promise<AisConsentRecord> {
    const now = this.clock.now().toISOString()
    const record: AisConsentRecord = {
      ...input,
      kind: 'ais',
      consentId: `aac-${randomUUID()}`,
      creationDateTime: now,
      statusUpdateDateTime: now,
      status: 'AWAU',
      accountIds: [],
      deleted: false,
    }
    await this.store.insertConsent(record)
    return record
  }

  /** A new PIS consent record (not stored: `SandboxStore.createConsentOnce` stores it with its idempotency key). */
  newPis(input: NewPisConsent): PisConsentRecord {
    const now = this.clock.now().toISOString()
    return {
      ...input,
      kind: 'pis',
      consentId: `sdp-${randomUUID()}`,
      creationDateTime: now,
      statusUpdateDateTime: now,
      status: 'AWAU',
    }
  }

  async createPis(input: NewPisConsent): Promise<PisConsentRecord> {
    const record = this.newPis(input)
    await this.store.insertConsent(record)
    return record
  }

  /** The consent, with expiry applied (an AIS consent past its ExpirationDateTime becomes `EXPD`). */
  async get(consentId: string): Promise<ConsentRecord | undefined> {
    const record = await this.store.consent(consentId)
    if (!record) return undefined
    if (record.kind === 'ais' && record.expirationDateTime && (record.status === 'AWAU' || record.status === 'AUTH')) {
      if (Date.parse(record.expirationDateTime) <= this.clock.nowMs()) {
        const moved = await this.setStatus(record.consentId, [record.status], 'EXPD', [
          { StatusReasonCode: 'TKXP', StatusReasonDescription: 'The consent passed its ExpirationDateTime.' },
        ])
        return moved.consent
      }
    }
    return record
  }

  async getAis(consentId: string): Promise<AisConsentRecord | undefined> {
    const c = await this.get(consentId)
    return c?.kind === 'ais' ? c : undefined
  }

  async getPis(consentId: string): Promise<PisConsentRecord | undefined> {
    const c = await this.get(consentId)
    return c?.kind === 'pis' ? c : undefined
  }

  /** Moves the consent to `status` if it is still in one of `from` (compare-and-set); the stored consent after. */
  setStatus(
    consentId: string,
    from: readonly string[],
    status: ConsentRecord['status'],
    reason?: StatusReason[],
    change: ConsentChange = {},
  ): Promise<ConsentChangeOutcome> {
    return this.store.changeConsent(consentId, from, {
      ...change,
      status,
      statusUpdateDateTime: this.clock.now().toISOString(),
      statusReason: reason ?? null,
    })
  }

  /**
   * Records the PSU's approval (a new SCA) of a consent awaiting it or already authorised. For AIS,
   * `accountIds` are the accounts the PSU selected; for PIS, the first one is the debtor account.
   * `changed: false` when the consent was revoked, rejected, expired or consumed meanwhile.
   */
  authorise(consentId: string, psuId: string, accountIds: string[]): Promise<ConsentChangeOutcome> {
    return this.setStatus(consentId, ['AWAU', 'AUTH'], 'AUTH', undefined, {
      psuId,
      authorisedAtMs: this.clock.nowMs(),
      accountIds: [...accountIds],
      ...(accountIds[0] ? { debtorAccountId: accountIds[0] } : {}),
    })
  }

  /** Records the PSU's refusal of a consent awaiting it: the consent becomes `RJCT`. */
  reject(consentId: string, psuId?: string): Promise<ConsentChangeOutcome> {
    return this.setStatus(
      consentId,
      ['AWAU'],
      'RJCT',
      [{ StatusReasonCode: 'U033', StatusReasonDescription: 'The PSU refused the consent.' }],
      psuId ? { psuId } : {},
    )
  }
}
