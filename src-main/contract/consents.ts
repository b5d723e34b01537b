// Consents the console created, the bank's view of them, and the discovery view. Pure TypeScript.
import type { CheckResult } from './checks.ts'

/** A consent the console created, as it keeps it (per client), with what the bank last said of it. */
export interface ConsentRecordDto {
  consentId: string
  kind: 'ais' | 'pis'
  clientId: string
  environmentId: string
  /** The flow that created it. */
  flowId?: string
  createdAt: string
  /** The status the bank last gave (AWAU, AUTH, RJCT, EXPD, …); `Deleted` once revoked by the console. */
  status?: string
  permissions?: string[]
  /** The consent's `ExpirationDateTime`, when it has one. */
  expirationDateTime?: string
  /** Whole days until `expirationDateTime` (negative once expired). */
  daysToExpiry?: number
  /** When the PSU last authorised it (strong customer authentication): starts the 90-day window. */
  lastScaAt?: string
  /** When the 90-day window after the last SCA closes (transactions older than 90 days need SCA again). */
  scaWindowEndsAt?: string
  /** When the console last read it from the bank. */
  checkedAt?: string
}

/** One GET of a consent: the record refreshed and the bank's answer. */
export interface ConsentReadDto {
  consent: ConsentRecordDto
  /** The bank's `Data` object as returned. */
  data: Record<string, unknown>
  exchangeId: string
}

/** The discovery document laid out for reading, with every capability mismatch named. */
export interface DiscoveryViewDto {
  url: string
  issuer: string
  endpoints: Record<string, string>
  algorithms: Record<string, string[]>
  tokenEndpointAuthMethods: string[]
  grantTypes: string[]
  responseTypes: string[]
  scopes: string[]
  claims: string[]
  /** Checks against the environment and, when a client is given, its registration. */
  checks: CheckResult[]
  document: Record<string, unknown>
  exchangeId: string
}
