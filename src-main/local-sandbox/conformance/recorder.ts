import type { ConformanceCounters, ConformanceStore, RememberedToken } from '../store/conformance-store.ts'
import type { ConformanceProbe } from './probe.ts'
import {
  DEFAULT_CONFORMANCE_LIMITS,
  type ConformanceClientSummary,
  type ConformanceLimits,
  type ConformanceReport,
  type RequestFacts,
} from './report-types.ts'

/** What the recorder needs of one finished request besides its probe. */
export interface FinishedRequest extends RequestFacts {
  /** The x-fapi-interaction-id header as the client sent it (undefined when absent). */
  interactionIdSent?: string
  /** x5t#S256 of the client certificate on the connection, when one was sent. */
  thumbprint?: string
}

/**
 * Keeps, per client, every rule the sandbox checked on that client's AIS and PIS requests and the
 * outcome (docs/local-sandbox.md, "Conformance report"), in the store (`store/conformance-store.ts`):
 * in memory on the embedded backend (a restart starts it empty), in PostgreSQL shared by every instance.
 * Bounded by `limits`.
 *
 * Whose request it was: the client of a valid access token; for a request whose token was refused, the
 * client that token was issued to (when the sandbox saw it valid before); else the client last seen with
 * the same transport certificate; else the certificate itself, as `cert:<x5t#S256>`. A request with no
 * client certificate at all is not recorded (`unattributed` counts them).
 */
export class ConformanceRecorder {
  readonly limits: ConformanceLimits

  constructor(
    private readonly store: ConformanceStore,
    private readonly nowSeconds: () => number,
    limits: Partial<ConformanceLimits> = {},
  ) {
    this.limits = { ...DEFAULT_CONFORMANCE_LIMITS, ...limits }
  }

  /** Folds one finished request's probe into its client's record. */
  async finish(probe: ConformanceProbe, request: FinishedRequest): Promise<void> {
    const { interactionIdSent, thumbprint, ...facts } = request
    const accepted = probe.acceptedToken
    if (accepted) {
      const token = { clientId: accepted.clientId, expiresAt: accepted.expiresAt }
      await Promise.all([
        this.store.rememberToken(accepted.hash, token, this.limits.tokens),
        thumbprint && this.store.rememberCertificate(thumbprint, accepted.clientId, this.limits.clients * 4),
      ])
    }
    const refused = probe.refusedTokenHash ? await this.store.tokenOwner(probe.refusedTokenHash) : undefined
    const clientId =
      probe.clientId ?? refused?.clientId ?? (thumbprint ? await this.store.certificateOwner(thumbprint) : undefined)
    const key = clientId ?? (thumbprint ? `cert:${thumbprint}` : undefined)
    if (!key) return this.store.countUnattributed()
    const events = [...probe.events]
    if (accepted) events.push({ rule: 'token.expiry', ok: true })
    if (probe.refusedTokenHash)
      events.push({ rule: 'token.expiry', ok: false, detail: this.#refusedTokenDetail(refused) })
    await this.store.updateRecord(key, clientId ? 'client' : 'certificate', facts.at, this.limits, (record) => {
      record.record(events, facts)
      record.interactionId(interactionIdSent, facts)
      for (const page of probe.pages) record.page(page, facts)
    })
  }

  #refusedTokenDetail(token: RememberedToken | undefined): string {
    if (!token)
      return 'the access token is unknown to the sandbox: not one it issued, or one that expired before the sandbox last started; get a new token'
    const now = this.nowSeconds()
    if (token.expiresAt <= now) {
      const at = new Date(token.expiresAt * 1000).toISOString()
      return (
        `the access token expired at ${at} (sandbox time), ${now - token.expiresAt} s before this call; ` +
        "get a new token (client credentials again, or the PSU's authorisation) instead of retrying with it"
      )
    }
    return 'the access token was valid before and is revoked now (its consent, grant or client was removed); get a new token'
  }

  async report(clientId: string): Promise<ConformanceReport | undefined> {
    return (await this.store.record(clientId, this.limits))?.report()
  }

  /** Every client with a record, most recently active first. */
  async clients(): Promise<ConformanceClientSummary[]> {
    return (await this.store.records(this.limits)).map((c) => {
      const r = c.report()
      const failed = r.rules.reduce((n, x) => n + x.failed, 0)
      return { clientId: r.clientId, keyedBy: r.keyedBy, ok: r.ok, requests: r.requests, failed, lastSeen: r.lastSeen }
    })
  }

  /** Requests recorded for nobody, and records dropped past `limits.clients`. */
  counters(): Promise<ConformanceCounters> {
    return this.store.counters()
  }

  /** Forgets one client's record (or every record); returns how many were removed. */
  clear(clientId?: string): Promise<number> {
    return this.store.clear(clientId)
  }
}
