import type { ConsentRecord } from '../consents/consent-store.ts'
import type { ConsentChange, IdempotencyClaim, IdempotencyRecord } from './sandbox-store.ts'

/**
 * The small rules every backend applies the same way, kept here so that no backend words them again:
 * how a status change lands on a consent, when an idempotency key is still live, which accesses are in
 * the PSU-absent window.
 */

/** `record` with `change` applied (a copy). */
export function applyConsentChange(record: ConsentRecord, change: ConsentChange): ConsentRecord {
  const next = { ...record } as Record<string, unknown>
  for (const [field, value] of Object.entries(change)) {
    if (value === undefined) continue
    if (field === 'statusReason' && value === null) delete next.statusReason
    else if (field === 'accountIds' || field === 'deleted') {
      if (record.kind === 'ais') next[field] = value
    } else if (field === 'debtorAccountId') {
      if (record.kind === 'pis') next[field] = value
    } else next[field] = value
  }
  return next as unknown as ConsentRecord
}

/** Whether a key first used at `record.createdAtMs` still binds requests at `claim.nowMs`. */
export function idempotencyLive(record: IdempotencyRecord, claim: Pick<IdempotencyClaim, 'nowMs' | 'windowMs'>) {
  return claim.nowMs - record.createdAtMs < claim.windowMs
}

/** The stored key of a claim: one per client, endpoint and key. */
export function idempotencyId(claim: Pick<IdempotencyClaim, 'clientId' | 'endpoint' | 'key'>): string {
  return JSON.stringify([claim.clientId, claim.endpoint, claim.key])
}

/** The record a claim leaves once it created `resourceId`. */
export function idempotencyRecordOf(claim: IdempotencyClaim, resourceId: string): IdempotencyRecord {
  return {
    clientId: claim.clientId,
    endpoint: claim.endpoint,
    key: claim.key,
    bodySha256: claim.bodySha256,
    resourceId,
    createdAtMs: claim.nowMs,
  }
}

/** The accesses of `times` inside the window ending at `nowMs`, oldest first. */
export function inWindow(times: readonly number[], nowMs: number, windowMs: number): number[] {
  return times.filter((t) => t > nowMs - windowMs).sort((a, b) => a - b)
}
