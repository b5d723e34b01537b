/**
 * The local sandbox's admin, as the console shows it: its clock and its fault mode (the directory's
 * `/admin/clock` and `/admin/faults`; docs/local-sandbox.md). Local sandbox only: the bank has neither.
 */

/** The local sandbox's clock: its time (wall time plus the offset it was moved by). */
export interface SandboxClockDto {
  now: string
  offsetSeconds: number
  /** Set after a move: by how much. */
  advancedSeconds?: number
}

/** Moves the local sandbox's clock forward (it never goes back): whole hours and/or days. */
export interface SandboxClockMove {
  hours?: number
  days?: number
}

/** The sandbox origin a fault rule picks requests on (`any`: all three). */
export type SandboxFaultOrigin = 'base' | 'auth' | 'directory' | 'any'

/** A fault as the sandbox lists it: its `kind` and that kind's fields (docs/local-sandbox.md, "Fault mode"). */
export interface SandboxFaultDto {
  kind: string
  [field: string]: unknown
}

/** One fault rule of the local sandbox, with its defaults filled in and its counts. */
export interface SandboxFaultRuleDto {
  id: string
  origin: SandboxFaultOrigin
  /** Absent: any method. */
  method?: string
  /** A path glob (`*` within one segment, `**` across segments). */
  path: string
  skip: number
  /** Absent: every matching request after `skip`. */
  times?: number
  fault: SandboxFaultDto
  /** Matching requests (connections for `tls-handshake`) seen while the rule was active. */
  seen: number
  /** Requests (connections) the fault was applied to. */
  hits: number
  /** `times` faults applied: the rule matches nothing more. */
  exhausted: boolean
}

/** The rules in force after a call, in the order they are tried; `added` / `removed` say what the call did. */
export interface SandboxFaultsDto {
  rules: SandboxFaultRuleDto[]
  /** The id of the rule `sandbox.addFault` added. */
  added?: string
  /** How many rules `sandbox.removeFault` / `sandbox.clearFaults` removed. */
  removed?: number
}

/**
 * A rule to add: as an object (the panel's form), or as the JSON text the user wrote, sent to the sandbox as
 * written so that its own validation explains any mistake in it.
 */
export type SandboxFaultAdd = { rule: Record<string, unknown> } | { json: string }
