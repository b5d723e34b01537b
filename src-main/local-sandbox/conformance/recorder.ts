import type { ConformanceCounters, ConformanceStore, RememberedToken } from '../store/conformance-store.ts'
import type { ClientRecord } from './client-record.ts'
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

/** Requests queued for recording at most, on a shared store (past it they are dropped and counted). */
const MAX_QUEUED = 10_000

export interface RecorderOptions {
  /** Record behind the answers, in batches (a store other instances share: a database). */
  deferred?: boolean
  /** A batch could not be recorded (the store failed): its size, for the operator log. */
  onError?: (err: Error, requests: number) => void
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
  #queue: Array<{ probe: ConformanceProbe; request: FinishedRequest }> = []
  #draining: Promise<void> | undefined
  /** Requests dropped since the queue was last empty. */
  #dropped = 0

  constructor(
    private readonly store: ConformanceStore,
    private readonly nowSeconds: () => number,
    limits: Partial<ConformanceLimits> = {},
    private readonly options: RecorderOptions = {},
  ) {
    this.limits = { ...DEFAULT_CONFORMANCE_LIMITS, ...limits }
  }

  /**
   * Folds one finished request's probe into its client's record. On a shared store (`deferred`) the
   * request is queued and recorded behind the answer, in batches (see #drain): the answer never waits for
   * the database, and a client's concurrent requests do not queue on its record's row lock.
   */
  finish(probe: ConformanceProbe, request: FinishedRequest): Promise<void> {
    if (!this.options.deferred) return this.#record([{ probe, request }])
    if (this.#queue.length >= MAX_QUEUED) {
      // Said once per burst: the queue empties before it is said again.
      if (this.#dropped++ === 0)
        this.options.onError?.(
          new Error(`the recording queue is full (${MAX_QUEUED} requests); requests are dropped`),
          1,
        )
      return Promise.resolve()
    }
    this.#queue.push({ probe, request })
    this.#draining ??= this.#drain()
    return Promise.resolve()
  }

  /** Records the queue in batches until it is empty; a batch that fails is reported and dropped. */
  async #drain(): Promise<void> {
    while (this.#queue.length) {
      const batch = this.#queue.splice(0)
      try {
        await this.#record(batch)
      } catch (err) {
        this.options.onError?.(err as Error, batch.length)
      }
    }
    this.#draining = undefined
    this.#dropped = 0
  }

  /** Resolves once every request this instance has queued is recorded (reads see this instance's requests). */
  async settled(): Promise<void> {
    while (this.#draining) await this.#draining
  }

  /** Records finished requests: tokens and certificates remembered, then one record update per client. */
  async #record(items: Array<{ probe: ConformanceProbe; request: FinishedRequest }>): Promise<void> {
    const remembered = new Set<string>()
    const folds = new Map<
      string,
      { keyedBy: 'client' | 'certificate'; at: string; apply: Array<(r: ClientRecord) => void> }
    >()
    for (const { probe, request } of items) {
      const { interactionIdSent, thumbprint, ...facts } = request
      const accepted = probe.acceptedToken
      if (accepted && !remembered.has(`${accepted.hash}|${thumbprint ?? ''}`)) {
        remembered.add(`${accepted.hash}|${thumbprint ?? ''}`)
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
      if (!key) {
        await this.store.countUnattributed()
        continue
      }
      const events = [...probe.events]
      if (accepted) events.push({ rule: 'token.expiry', ok: true })
      if (probe.refusedTokenHash)
        events.push({ rule: 'token.expiry', ok: false, detail: this.#refusedTokenDetail(refused) })
      let fold = folds.get(key)
      if (!fold) folds.set(key, (fold = { keyedBy: clientId ? 'client' : 'certificate', at: facts.at, apply: [] }))
      fold.apply.push((record) => {
        record.record(events, facts)
        record.interactionId(interactionIdSent, facts)
        for (const page of probe.pages) record.page(page, facts)
      })
    }
    for (const [key, fold] of folds)
      await this.store.updateRecord(key, fold.keyedBy, fold.at, this.limits, (record) => {
        for (const apply of fold.apply) apply(record)
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
    await this.settled()
    return (await this.store.record(clientId, this.limits))?.report()
  }

  /** Every client with a record, most recently active first. */
  async clients(): Promise<ConformanceClientSummary[]> {
    await this.settled()
    return (await this.store.records(this.limits)).map((c) => {
      const r = c.report()
      const failed = r.rules.reduce((n, x) => n + x.failed, 0)
      return { clientId: r.clientId, keyedBy: r.keyedBy, ok: r.ok, requests: r.requests, failed, lastSeen: r.lastSeen }
    })
  }

  /** Requests recorded for nobody, and records dropped past `limits.clients`. */
  async counters(): Promise<ConformanceCounters> {
    await this.settled()
    return this.store.counters()
  }

  /** Forgets one client's record (or every record); returns how many were removed. */
  async clear(clientId?: string): Promise<number> {
    await this.settled()
    return this.store.clear(clientId)
  }
}
