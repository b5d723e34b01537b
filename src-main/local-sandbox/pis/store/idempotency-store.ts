import { createHash } from 'node:crypto'
import { join } from 'node:path'
import type { SandboxClock } from '../../clock.ts'
import { JournaledMap } from '../../store/journaled-map.ts'

/** How long a key is remembered: v4.0 says a request is idempotent within the preceding 24 hours. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000

/** The endpoints that take `x-idempotency-key`; keys are scoped per client and per endpoint. */
export type IdempotentEndpoint = 'domestic-payment-consents' | 'domestic-payments'

interface IdempotencyRecord {
  clientId: string
  endpoint: IdempotentEndpoint
  key: string
  /** SHA-256 (hex) of the exact request body bytes. */
  bodySha256: string
  /** The resource the first request created (ConsentId or DomesticPaymentId). */
  resourceId: string
  createdAtMs: number
}

export type IdempotencyLookup =
  | { kind: 'new' }
  | { kind: 'replay'; resourceId: string }
  | { kind: 'conflict'; resourceId: string; firstUsedAtMs: number }

/**
 * Remembers `x-idempotency-key`s for 24 hours of sandbox time, per client and endpoint, with a hash of
 * the body they came with, in `state/pis-idempotency.json` and its journal (see JournaledMap). Only a request that created a resource
 * records its key: a refused request leaves the key free.
 */
export class IdempotencyStore {
  readonly #records: JournaledMap<IdempotencyRecord>

  constructor(
    stateDir: string,
    private readonly clock: SandboxClock,
  ) {
    this.#records = new JournaledMap(join(stateDir, 'pis-idempotency.json'), {
      keep: (r) => this.#live(r, this.clock.nowMs()),
    })
  }

  static bodyHash(body: Uint8Array): string {
    return createHash('sha256').update(body).digest('hex')
  }

  /** Whether this (client, endpoint, key) was used in the last 24 h, and with the same body. */
  lookup(clientId: string, endpoint: IdempotentEndpoint, key: string, body: Uint8Array): IdempotencyLookup {
    const record = this.#records.get(this.#id(clientId, endpoint, key))
    if (!record || !this.#live(record, this.clock.nowMs())) return { kind: 'new' }
    if (record.bodySha256 === IdempotencyStore.bodyHash(body)) return { kind: 'replay', resourceId: record.resourceId }
    return { kind: 'conflict', resourceId: record.resourceId, firstUsedAtMs: record.createdAtMs }
  }

  /** Records the key of a request that created `resourceId` (keys older than 24 h are left out of the snapshot). */
  remember(clientId: string, endpoint: IdempotentEndpoint, key: string, body: Uint8Array, resourceId: string): void {
    const now = this.clock.nowMs()
    this.#records.set(this.#id(clientId, endpoint, key), {
      clientId,
      endpoint,
      key,
      bodySha256: IdempotencyStore.bodyHash(body),
      resourceId,
      createdAtMs: now,
    })
  }

  #live(record: IdempotencyRecord, nowMs: number): boolean {
    return nowMs - record.createdAtMs < IDEMPOTENCY_WINDOW_MS
  }

  #id(clientId: string, endpoint: IdempotentEndpoint, key: string): string {
    return JSON.stringify([clientId, endpoint, key])
  }
}
