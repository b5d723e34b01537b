/**
 * The local sandbox's conformance report of one client (docs/local-sandbox.md, "Conformance report"). The report as
 * it travels is `plumbing/conformance-report.ts`'s; `services/sandbox-report.ts` assigns one to this DTO, so the
 * compiler keeps the two in step.
 */

/** One failed check: the request it was seen on, what was wrong, the spec it rests on. */
export interface SandboxReportFailureDto {
  /** Wall time, ISO 8601. */
  at: string
  method: string
  path: string
  interactionId: string
  status: number
  detail: string
  spec: string
  /** True when the sandbox refused the request; false when it answered and only recorded the failure. */
  refused: boolean
}

export interface SandboxReportRuleDto {
  /** Rule id, e.g. `headers.required`, `pagination`. */
  id: string
  title: string
  checks: string
  spec: string
  enforcement: 'refused' | 'recorded' | 'both'
  passed: number
  failed: number
  /** The most recent failures, newest last. */
  lastFailures: SandboxReportFailureDto[]
}

export interface SandboxReportDto {
  clientId: string
  /** `certificate`: requests no valid token named, kept under `cert:<x5t#S256>`. */
  keyedBy: 'client' | 'certificate'
  /** True when no rule failed. */
  ok: boolean
  requests: number
  firstSeen: string
  lastSeen: string
  rules: SandboxReportRuleDto[]
}
