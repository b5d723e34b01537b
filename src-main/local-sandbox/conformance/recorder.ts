import type { ConformanceCounters, ConformanceStore, RememberedToken } from '../store/conformance-store.ts'
import type { ClientRecord } from './client-record.ts'
import { tokenHash, type ConformanceProbe } from './probe.ts'
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

/** How long a token or certificate remembered by this instance is not remembered again, ms (its activity refreshed). */
const REMEMBERED_FOR_MS = 60_000
/** Tokens and certificates this instance remembers having remembered, at most. */
const REMEMBERED_MAX = 4096

export interface RecorderOptions {
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
  /** Tokens (with the certificate they came with) remembered in the store lately, and when (in memory only). */
  readonly #remembered = new Map<string, number>()

  constructor(
    private readonly store: ConformanceStore,
    private readonly nowSeconds: () => number,
    limits: Partial<ConformanceLimits> = {},
    private readonly options: RecorderOptions = {},
  ) {
    this.limits = { ...DEFAULT_CONFORMANCE_LIMITS, ...limits }
  }

  /**
   * Folds one finished request's probe into its client's record, behind the answer: the request is queued
   * and recorded in batches (see #drain), so the answer never waits for the store, a client's concurrent
   * requests are folded into its record once per batch, and a client's token is remembered once. Reads
   * (report, clients, counters, clear) wait for the queue first, so they see every request answered before.
   */
  finish(probe: ConformanceProbe, request: FinishedRequest): void {
    if (this.#queue.length >= MAX_QUEUED) {
      // Said once per burst: the queue empties before it is said again.
      if (this.#dropped++ === 0)
        this.options.onError?.(
          new Error(`the recording queue is full (${MAX_QUEUED} requests); requests are dropped`),
          1,
        )
      return
    }
    this.#queue.push({ probe, request })
    this.#draining ??= this.#drain()
  }

  /** Records the queue in batches until it is empty; a batch that fails is reported and dropped. */
  async #drain(): Promise<void> {
    // The requests answered in this turn of the event loop make the first batch.
    await new Promise((resolve) => setImmediate(resolve))
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

  /** True when this token with this certificate was remembered in the store lately (then it is not again). */
  #rememberedLately(key: string): boolean {
    const now = Date.now()
    const at = this.#remembered.get(key)
    if (at !== undefined && now - at < REMEMBERED_FOR_MS) return true
    this.#remembered.delete(key)
    if (this.#remembered.size >= REMEMBERED_MAX) this.#remembered.delete(this.#remembered.keys().next().value!)
    this.#remembered.set(key, now)
    return false
  }

  /** Resolves once every request this instance has queued is recorded (reads see this instance's requests). */
  async settled(): Promise<void> {
    while (this.#draining) await this.#draining
  }

  /** Records finished requests: tokens and certificates remembered, then one record update per client. */
  async #record(items: Array<{ probe: ConformanceProbe; request: FinishedRequest }>): Promise<void> {
    const folds = new Map<
      string,
      { keyedBy: 'client' | 'certificate'; at: string; apply: Array<(r: ClientRecord) => void> }
    >()
    for (const { probe, request } of items) {
      const { interactionIdSent, thumbprint, ...facts } = request
      const accepted = probe.acceptedToken
      if (accepted && !this.#rememberedLately(`${accepted.token}|${thumbprint ?? ''}`)) {
        const token = { clientId: accepted.clientId, expiresAt: accepted.expiresAt }
        await Promise.all([
          this.store.rememberToken(tokenHash(accepted.token), token, this.limits.tokens),
          thumbprint && this.store.rememberCertificate(thumbprint, accepted.clientId, this.limits.clients * 4),
        ])
      }
      const refused = probe.refusedToken ? await this.store.tokenOwner(tokenHash(probe.refusedToken)) : undefined
      const clientId =
        probe.clientId ?? refused?.clientId ?? (thumbprint ? await this.store.certificateOwner(thumbprint) : undefined)
      const key = clientId ?? (thumbprint ? `cert:${thumbprint}` : undefined)
      if (!key) {
        await this.store.countUnattributed()
        continue
      }
      const events = [...probe.events]
      if (accepted) events.push({ rule: 'token.expiry', ok: true })
      if (probe.refusedToken)
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
