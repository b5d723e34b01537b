import { ClientRecord } from '../conformance/client-record.ts'
import type { ConformanceLimits } from '../conformance/report-types.ts'

/** An access token seen valid (kept by hash): whose it was and when it expires (sandbox seconds). */
export interface RememberedToken {
  clientId: string
  expiresAt: number
}

export interface ConformanceCounters {
  /** Requests recorded for nobody (no token, no certificate). */
  unattributed: number
  /** Records dropped past `limits.clients`. */
  evictedClients: number
}

/**
 * The conformance records (`conformance/recorder.ts`) as a part of the sandbox store: per client, what
 * its requests did to each rule, and what attributes a request to a client (token hashes, certificates).
 * Bounded by the recorder's limits, given with each call. On a database backend every instance records
 * into and reports from the same records, so a report covers the requests the client made to any of them.
 */
export interface ConformanceStore {
  /** Remembers a valid token's client; past `max` tokens the least recently seen is forgotten. */
  rememberToken(hash: string, token: RememberedToken, max: number): Promise<void>
  tokenOwner(hash: string): Promise<RememberedToken | undefined>
  /** Remembers the client last seen with a certificate; past `max` the least recently seen is forgotten. */
  rememberCertificate(thumbprint: string, clientId: string, max: number): Promise<void>
  certificateOwner(thumbprint: string): Promise<string | undefined>
  countUnattributed(): Promise<void>
  /**
   * Folds one request into the record under `key` (created when there is none), atomically with other
   * requests' folds into it; the record becomes the most recently active, and past `limits.clients`
   * records the least recently active is dropped (and counted).
   */
  updateRecord(
    key: string,
    keyedBy: 'client' | 'certificate',
    at: string,
    limits: ConformanceLimits,
    fold: (record: ClientRecord) => void,
  ): Promise<void>
  record(key: string, limits: ConformanceLimits): Promise<ClientRecord | undefined>
  /** Every record, most recently active first. */
  records(limits: ConformanceLimits): Promise<ClientRecord[]>
  /** Forgets one record (or every record); how many were removed. */
  clear(key?: string): Promise<number>
  counters(): Promise<ConformanceCounters>
}

function setBounded<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key)
  map.set(key, value)
  while (map.size > max) map.delete(map.keys().next().value!)
}

/** The conformance records in memory (the embedded backend): a restart starts them empty. */
export class MemoryConformance implements ConformanceStore {
  readonly #records = new Map<string, ClientRecord>()
  readonly #tokens = new Map<string, RememberedToken>()
  readonly #certificates = new Map<string, string>()
  #unattributed = 0
  #evictedClients = 0

  async rememberToken(hash: string, token: RememberedToken, max: number): Promise<void> {
    setBounded(this.#tokens, hash, { ...token }, max)
  }

  async tokenOwner(hash: string): Promise<RememberedToken | undefined> {
    const t = this.#tokens.get(hash)
    return t && { ...t }
  }

  async rememberCertificate(thumbprint: string, clientId: string, max: number): Promise<void> {
    setBounded(this.#certificates, thumbprint, clientId, max)
  }

  async certificateOwner(thumbprint: string): Promise<string | undefined> {
    return this.#certificates.get(thumbprint)
  }

  async countUnattributed(): Promise<void> {
    this.#unattributed++
  }

  async updateRecord(
    key: string,
    keyedBy: 'client' | 'certificate',
    at: string,
    limits: ConformanceLimits,
    fold: (record: ClientRecord) => void,
  ): Promise<void> {
    const record = this.#records.get(key) ?? new ClientRecord(key, keyedBy, limits, at)
    // Most recently active last: the first in the map is the one to drop.
    this.#records.delete(key)
    this.#records.set(key, record)
    while (this.#records.size > limits.clients) {
      this.#records.delete(this.#records.keys().next().value!)
      this.#evictedClients++
    }
    fold(record)
  }

  async record(key: string): Promise<ClientRecord | undefined> {
    return this.#records.get(key)
  }

  async records(): Promise<ClientRecord[]> {
    return [...this.#records.values()].reverse()
  }

  async clear(key?: string): Promise<number> {
    if (key !== undefined) return this.#records.delete(key) ? 1 : 0
    const n = this.#records.size
    this.#records.clear()
    return n
  }

  async counters(): Promise<ConformanceCounters> {
    return { unattributed: this.#unattributed, evictedClients: this.#evictedClients }
  }
}
