import type { ConformanceRuleId } from './rules.ts'

/** The request a failure was seen on. */
export interface RequestFacts {
  /** Wall time, ISO 8601. */
  at: string
  method: string
  /** Path without the query. */
  path: string
  /** The x-fapi-interaction-id the response carried (the client's own when it sent a UUID). */
  interactionId: string
  /** The status answered. */
  status: number
}

export interface ConformanceFailure extends RequestFacts {
  /** What was wrong and what to do, in the sandbox's words. */
  detail: string
  /** The spec section(s) the rule rests on. */
  spec: string
  /** True when the sandbox refused the request (a 4xx); false when it answered and only recorded the failure. */
  refused: boolean
}

export interface ConformanceRuleResult {
  id: ConformanceRuleId
  title: string
  checks: string
  spec: string
  enforcement: 'refused' | 'recorded' | 'both'
  passed: number
  failed: number
  /** The most recent failures, newest last (at most `limits.failuresPerRule`). */
  lastFailures: ConformanceFailure[]
}

export interface ConformanceReport {
  /** The client id, or `cert:<x5t#S256>` for requests of a certificate no valid token has named. */
  clientId: string
  keyedBy: 'client' | 'certificate'
  /** True when no rule failed. */
  ok: boolean
  /** Requests recorded for this client. */
  requests: number
  firstSeen: string
  lastSeen: string
  /** Every rule, in the order of the rule list, exercised or not (0 and 0 when not). */
  rules: ConformanceRuleResult[]
  limits: ConformanceLimits
}

export interface ConformanceClientSummary {
  clientId: string
  keyedBy: 'client' | 'certificate'
  ok: boolean
  requests: number
  failed: number
  lastSeen: string
}

/** How much the recorder keeps (it is in memory only). */
export interface ConformanceLimits {
  /** Clients (and certificates) with a record; past it the least recently active record is dropped. */
  clients: number
  /** Failures kept per rule and client (counts go on). */
  failuresPerRule: number
  /** Transactions lists followed per client; past it the oldest is dropped (counted as stopped if unfinished). */
  listingsPerClient: number
  /** Interaction ids remembered per client for the reuse check. */
  interactionIdsPerClient: number
  /** Token hashes remembered (for "used after expiry") across clients. */
  tokens: number
}

export const DEFAULT_CONFORMANCE_LIMITS: ConformanceLimits = {
  clients: 100,
  failuresPerRule: 20,
  listingsPerClient: 200,
  interactionIdsPerClient: 500,
  tokens: 10_000,
}
