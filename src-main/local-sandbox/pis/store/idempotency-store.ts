import { createHash } from 'node:crypto'
import type { IdempotencyClaim, IdempotentEndpoint } from '../../store/sandbox-store.ts'

export type { IdempotentEndpoint }

/** How long a key is remembered: v4.0 says a request is idempotent within the preceding 24 hours. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000

/** SHA-256 (hex) of the exact request body bytes: a key replays only with the body it came with. */
export function bodyHash(body: Uint8Array): string {
  return createHash('sha256').update(body).digest('hex')
}

/**
 * One use of `x-idempotency-key` at sandbox time `nowMs`: per client and endpoint, for 24 hours of sandbox
 * time, with a hash of the body. The sandbox store checks it and records it in the same step as the
 * resource it creates, so only a request that created a resource records its key (a refused request
 * leaves the key free) and two concurrent requests with one key create one resource.
 */
export function idempotencyClaim(
  clientId: string,
  endpoint: IdempotentEndpoint,
  key: string,
  body: Uint8Array,
  nowMs: number,
): IdempotencyClaim {
  return { clientId, endpoint, key, bodySha256: bodyHash(body), nowMs, windowMs: IDEMPOTENCY_WINDOW_MS }
}
