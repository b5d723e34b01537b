import { ClientRecord } from './client-record.ts'
import type { ConformanceProbe } from './probe.ts'
import {
  DEFAULT_CONFORMANCE_LIMITS,
  type ConformanceClientSummary,
  type ConformanceLimits,
  type ConformanceReport,
  type RequestFacts,
} from './report-types.ts'

interface RememberedToken {
  clientId: string
  /** Sandbox expiry, seconds. */
  expiresAt: number
}

/** What the recorder needs of one finished request besides its probe. */
export interface FinishedRequest extends RequestFacts {
  /** The x-fapi-interaction-id header as the client sent it (undefined when absent). */
  interactionIdSent?: string
  /** x5t#S256 of the client certificate on the connection, when one was sent. */
  thumbprint?: string
}

function setBounded<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key)
  map.set(key, value)
  while (map.size > max) map.delete(map.keys().next().value!)
}

/**
 * Keeps, per client, every rule the sandbox checked on that client's AIS and PIS requests and the
 * outcome (docs/local-sandbox.md, "Conformance report"). In memory only, bounded by `limits`: a restart
 * starts it empty.
 *
 * Whose request it was: the client of a valid access token; for a request whose token was refused, the
 * client that token was issued to (when the sandbox saw it valid before); else the client last seen with
 * the same transport certificate; else the certificate itself, as `cert:<x5t#S256>`. A request with no
 * client certificate at all is not recorded (`unattributed` counts them).
 */
export class ConformanceRecorder {
  readonly limits: ConformanceLimits
  readonly #clients = new Map<string, ClientRecord>()
  readonly #tokens = new Map<string, RememberedToken>()
  readonly #certificates = new Map<string, string>()
  /** Requests recorded for nobody (no token, no certificate), and records dropped past `limits.clients`. */
  unattributed = 0
  evictedClients = 0

  constructor(
    private readonly nowSeconds: () => number,
    limits: Partial<ConformanceLimits> = {},
  ) {
    this.limits = { ...DEFAULT_CONFORMANCE_LIMITS, ...limits }
  }

  /** Folds one finished request's probe into its client's record. */
  finish(probe: ConformanceProbe, request: FinishedRequest): void {
    const { interactionIdSent, thumbprint, ...facts } = request
    const accepted = probe.acceptedToken
    if (accepted) {
      setBounded(
        this.#tokens,
        accepted.hash,
        { clientId: accepted.clientId, expiresAt: accepted.expiresAt },
        this.limits.tokens,
      )
      if (thumbprint) setBounded(this.#certificates, thumbprint, accepted.clientId, this.limits.clients * 4)
    }
    const refused = probe.refusedTokenHash ? this.#tokens.get(probe.refusedTokenHash) : undefined
    const clientId =
      probe.clientId ?? refused?.clientId ?? (thumbprint ? this.#certificates.get(thumbprint) : undefined)
    const key = clientId ?? (thumbprint ? `cert:${thumbprint}` : undefined)
    if (!key) {
      this.unattributed++
      return
    }
    const record = this.#record(key, clientId ? 'client' : 'certificate', facts.at)
    const events = [...probe.events]
    if (accepted) events.push({ rule: 'token.expiry', ok: true })
    if (probe.refusedTokenHash)
      events.push({ rule: 'token.expiry', ok: false, detail: this.#refusedTokenDetail(refused) })
    record.record(events, facts)
    record.interactionId(interactionIdSent, facts)
    for (const page of probe.pages) record.page(page, facts)
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

  #record(key: string, keyedBy: 'client' | 'certificate', at: string): ClientRecord {
    let record = this.#clients.get(key)
    if (record) {
      // Most recently active last: the first in the map is the one to drop.
      this.#clients.delete(key)
    } else {
      record = new ClientRecord(key, keyedBy, this.limits, at)
    }
    this.#clients.set(key, record)
    while (this.#clients.size > this.limits.clients) {
      this.#clients.delete(this.#clients.keys().next().value!)
      this.evictedClients++
    }
    return record
  }

  report(clientId: string): ConformanceReport | undefined {
    return this.#clients.get(clientId)?.report()
  }

  /** Every client with a record, most recently active first. */
  clients(): ConformanceClientSummary[] {
    return [...this.#clients.values()].reverse().map((c) => {
      const r = c.report()
      const failed = r.rules.reduce((n, x) => n + x.failed, 0)
      return { clientId: r.clientId, keyedBy: r.keyedBy, ok: r.ok, requests: r.requests, failed, lastSeen: r.lastSeen }
    })
  }

  /** Forgets one client's record (or every record); returns how many were removed. */
  clear(clientId?: string): number {
    if (clientId !== undefined) return this.#clients.delete(clientId) ? 1 : 0
    const n = this.#clients.size
    this.#clients.clear()
    return n
  }
}
