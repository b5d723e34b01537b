/**
 * A flow named by what it did, from its steps' recorded outputs: "AIS · 2 accounts · 1,691 transactions",
 * "PIS · £12.50 · AcceptedSettlementCompleted"; before its steps say anything, where it stands.
 */
import type { FlowState, StepState } from '../../../src-main/contract/flows.ts'
import { formatAmount } from '../../lib/format.ts'

const count = new Intl.NumberFormat('en-GB')

const plural = (n: number, word: string) => `${count.format(n)} ${word}${n === 1 ? '' : 's'}`

function outputOf(flow: FlowState, stepId: string): Record<string, unknown> | undefined {
  const step = flow.steps.find((s) => s.id === stepId && s.status === 'done')
  const out = step?.output
  return out && typeof out === 'object' && !Array.isArray(out) ? (out as Record<string, unknown>) : undefined
}

const isRecord = (x: unknown): x is Record<string, unknown> => !!x && typeof x === 'object' && !Array.isArray(x)

/** Where a flow stands when its outputs say nothing yet: the step it failed at, running, or not run. */
function standing(steps: StepState[]): string {
  const failed = steps.find((s) => s.status === 'failed')
  if (failed) return `failed at ${failed.title}`
  if (steps.some((s) => s.status === 'running')) return 'running'
  if (steps.some((s) => s.status === 'done')) return 'started'
  return 'not run yet'
}

function aisParts(flow: FlowState): string[] {
  const parts: string[] = []
  const accounts = outputOf(flow, 'accounts')?.accounts
  if (Array.isArray(accounts)) parts.push(plural(accounts.length, 'account'))
  const transactions = outputOf(flow, 'transactions')
  if (transactions) {
    const totals = Object.values(transactions).filter(isRecord)
    const total = totals.reduce((n, a) => n + (typeof a.total === 'number' ? a.total : 0), 0)
    if (totals.length) parts.push(plural(total, 'transaction'))
  }
  return parts
}

function pisParts(flow: FlowState): string[] {
  const parts: string[] = []
  const initiation = outputOf(flow, 'payment-consent')?.initiation
  const amount = isRecord(initiation) && isRecord(initiation.InstructedAmount) ? initiation.InstructedAmount : undefined
  if (amount && (typeof amount.Amount === 'string' || typeof amount.Amount === 'number'))
    parts.push(formatAmount(amount.Amount, typeof amount.Currency === 'string' ? amount.Currency : undefined))
  const status = outputOf(flow, 'payment-status')?.status ?? outputOf(flow, 'domestic-payment')?.status
  if (typeof status === 'string' && status) parts.push(status)
  return parts
}

/** The flow's name in the flows list. */
export function flowName(flow: FlowState): string {
  const parts = flow.kind === 'ais' ? aisParts(flow) : pisParts(flow)
  const failed = flow.steps.find((s) => s.status === 'failed')
  if (!parts.length || failed) parts.push(standing(flow.steps))
  return [flow.kind.toUpperCase(), ...parts].join(' · ')
}
