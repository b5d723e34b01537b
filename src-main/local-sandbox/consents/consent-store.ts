import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import { JournaledMap } from '../store/journaled-map.ts'
import type { SandboxClock } from '../clock.ts'

/**
 * The consent store: the one place consents live. The resource server's consent endpoints create and
 * read them; the authorisation server reads an intent (`openbanking_intent_id`) to check it exists, is
 * owned by the client and awaits authorisation, then records the PSU's decision here.
 */

export type AisConsentStatus = 'AWAU' | 'AUTH' | 'RJCT' | 'CANC' | 'EXPD'
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
  data: Record<string, unknown>
  risk: Record<string, unknown>
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

export class ConsentStore {
  readonly #consents: JournaledMap<ConsentRecord>

  /** Consents live in `state/consents.json` and its journal (every change is on disk before it is answered). */
  constructor(
    stateDir: string,
    private readonly clock: SandboxClock,
  ) {
    this.#consents = new JournaledMap(join(stateDir, 'consents.json'))
  }

  createAis(input: NewAisConsent): AisConsentRecord {
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
    this.#put(record)
    return record
  }

  createPis(input: NewPisConsent): PisConsentRecord {
    const now = this.clock.now().toISOString()
    const record: PisConsentRecord = {
      ...input,
      kind: 'pis',
      consentId: `sdp-${randomUUID()}`,
      creationDateTime: now,
      statusUpdateDateTime: now,
      status: 'AWAU',
    }
    this.#put(record)
    return record
  }

  /** The consent, with expiry applied (an AIS consent past its ExpirationDateTime becomes `EXPD`). */
  get(consentId: string): ConsentRecord | undefined {
    const record = this.#consents.get(consentId)
    if (!record) return undefined
    if (record.kind === 'ais' && record.expirationDateTime && (record.status === 'AWAU' || record.status === 'AUTH')) {
      if (Date.parse(record.expirationDateTime) <= this.clock.nowMs()) {
        return this.setStatus(record.consentId, 'EXPD', [
          { StatusReasonCode: 'TKXP', StatusReasonDescription: 'The consent passed its ExpirationDateTime.' },
        ])
      }
    }
    return record
  }

  getAis(consentId: string): AisConsentRecord | undefined {
    const c = this.get(consentId)
    return c?.kind === 'ais' ? c : undefined
  }

  getPis(consentId: string): PisConsentRecord | undefined {
    const c = this.get(consentId)
    return c?.kind === 'pis' ? c : undefined
  }

  setStatus<T extends ConsentRecord>(consentId: string, status: T['status'], reason?: StatusReason[]): T {
    return this.update<T>(consentId, (c) => {
      c.status = status
      c.statusUpdateDateTime = this.clock.now().toISOString()
      c.statusReason = reason
    })
  }

  /** Applies `mutate` to the stored consent and persists it. */
  update<T extends ConsentRecord>(consentId: string, mutate: (consent: T) => void): T {
    const record = this.#consents.get(consentId) as T | undefined
    if (!record) throw new Error(`no consent ${consentId}`)
    mutate(record)
    this.#put(record)
    return record
  }

  /**
   * Records the PSU's approval. For AIS, `accountIds` are the accounts the PSU selected; for PIS,
   * the first one is the debtor account.
   */
  authorise(consentId: string, psuId: string, accountIds: string[]): ConsentRecord {
    return this.update(consentId, (c) => {
      c.status = 'AUTH'
      c.psuId = psuId
      c.authorisedAtMs = this.clock.nowMs()
      c.statusUpdateDateTime = this.clock.now().toISOString()
      c.statusReason = undefined
      if (c.kind === 'ais') c.accountIds = [...accountIds]
      else c.debtorAccountId = accountIds[0] ?? c.debtorAccountId
    })
  }

  /** Records the PSU's refusal: the consent becomes `RJCT`. */
  reject(consentId: string, psuId?: string): ConsentRecord {
    return this.update(consentId, (c) => {
      c.status = 'RJCT'
      c.psuId = psuId ?? c.psuId
      c.statusUpdateDateTime = this.clock.now().toISOString()
      c.statusReason = [{ StatusReasonCode: 'U033', StatusReasonDescription: 'The PSU refused the consent.' }]
    })
  }

  #put(record: ConsentRecord): void {
    this.#consents.set(record.consentId, record)
  }
}
