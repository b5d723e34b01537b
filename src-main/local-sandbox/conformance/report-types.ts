import type {
  ConformanceFailureWire,
  ConformanceReportWire,
  ConformanceRuleWire,
} from '../../plumbing/conformance-report.ts'
import type { ConformanceRuleId } from './rules.ts'

/** The request a failure was seen on (its members as the report carries them, plumbing/conformance-report.ts). */
export type RequestFacts = Pick<ConformanceFailureWire, 'at' | 'method' | 'path' | 'interactionId' | 'status'>

/** One failed check: the request, what was wrong and what to do, the spec, and whether the request was refused. */
export type ConformanceFailure = ConformanceFailureWire

export interface ConformanceRuleResult extends ConformanceRuleWire {
  id: ConformanceRuleId
  /** The most recent failures, newest last (at most `limits.failuresPerRule`). */
  lastFailures: ConformanceFailure[]
}

/** A client's report: the one the admin route answers (the wire type), with the recorder's limits. */
export interface ConformanceReport extends ConformanceReportWire {
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
