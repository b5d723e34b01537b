import type { CheckResult } from './checks.ts'
import type { AppErrorDto } from './errors.ts'
import type { SecretItemDto } from './exchange.ts'

/** The flows the console walks, each an explicit sequence of steps. */
export type FlowKind = 'discovery' | 'registration' | 'ais' | 'pis'

export type StepStatus = 'idle' | 'running' | 'done' | 'failed' | 'skipped'

/** One pass/fail check a step made (an ID token claim, a signature, a rule), with the values compared. */
export type StepCheck = CheckResult

export interface StepState {
  id: string
  title: string
  /** One sentence saying what the step does, for the guided onboarding. */
  explanation: string
  status: StepStatus
  /** Ids of the exchanges (HTTP calls) the last run made, for the inspector. */
  exchangeIds: string[]
  checks: StepCheck[]
  /** A short human summary of what the step got ("3 accounts", "consent aac-… AWAU"). */
  summary?: string
  /** The step's output as JSON (ids, data; tokens and codes masked unless revealed, keys removed). */
  output?: unknown
  /** The secrets in the output, masked (reveal one with `secrets.reveal` and the flow's id). */
  secrets?: SecretItemDto[]
  /** Why the step failed; `problems` lists every entry of the bank's `Errors[]` with its `Path`. */
  error?: StepErrorDto
  startedAt?: string
  ms?: number
  /** While a long step runs: how far it got (the transactions step: page k of n, rows so far). */
  progress?: StepProgress
}

/**
 * Why a step failed: a coded error (a code of the closed list, what / cause / fix, `details`, `problems`) with
 * the step's id and, when the failure is about one, the exchange that failed (the id the inspector, the
 * exchange log and the HAR export know it by).
 *
 * @example { code: 'OB_ERROR', what: 'Creating the account access consent failed: 400.', cause: '…', fix: '…',
 *   step: 'consent', exchangeId: '5f0c…', details: { status: 400, exchangeId: '5f0c…' } }
 */
export interface StepErrorDto extends AppErrorDto {
  /** The id of the step that failed (`consent`, `domestic-payment`...). */
  step: string
  /** The exchange that failed: the one the error names, else the last the step made; absent when it made none. */
  exchangeId?: string
}

/** How far a running step got; cleared when it ends. */
export interface StepProgress {
  /** e.g. `transactions of acc-1 (account 2 of 3)` */
  label: string
  /** Pages read so far (of the current account). */
  page: number
  /** Pages in all, when the bank says (`Meta.TotalPages`). */
  pages?: number
  /** Rows read so far, every account of the step together. */
  rows: number
}

export interface FlowState {
  id: string
  kind: FlowKind
  environmentId: string
  clientId?: string
  steps: StepState[]
  /** The step waiting for the PSU (authorisation), when one is. */
  awaiting?: { stepId: string; authorisationUrl?: string; deeplink?: string; redirectUri: string; state: string }
  createdAt: string
  /**
   * A flow of an earlier console run, read from the flow history: its steps, results and errors can be
   * viewed, but it cannot run again (its tokens and context are gone).
   */
  restored?: boolean
}

/** A flow's identity: its id, kind, environment and client (what a listener to its progress needs). */
export type FlowHead = Pick<FlowState, 'id' | 'kind' | 'environmentId' | 'clientId'>

/** A page of the flows list: `before` the cursor of the last page's oldest flow (`FlowPage.next`), newest first. */
export interface FlowPageQuery {
  before?: string
  /** Flows per page (1 to 500; 50 by default). */
  limit?: number
  /** These flows only (any page), e.g. the ones the inspector has exchanges for. */
  ids?: string[]
}

export interface FlowPage {
  /** Newest first. */
  flows: FlowState[]
  /** How many older flows are past this page. */
  more: number
  /** The cursor of the next (older) page, when `more` is not 0. */
  next?: string
}

/** Event: a step of a flow changed. */
export interface FlowProgress {
  flowId: string
  step: StepState
}
