import type { PsuAbsentBudgetDto } from '../../contract/ais-data.ts'
import type { AisFlowInput } from '../../contract/api.ts'
import type { StepScope } from '../step-machine.ts'
import { AIS_STEPS } from './ais-context.ts'
import type { ExemptEndpoint, PsuAbsentBudget } from './psu-absent-budget.ts'

/** The AIS steps that spend the PSU-absent allowance, and the endpoint each call of theirs counts against. */
const SPENDING_STEPS: Record<
  string,
  { endpoint: ExemptEndpoint; perAccount: boolean; permission: (p: string) => boolean }
> = {
  accounts: { endpoint: 'accounts', perAccount: false, permission: () => true },
  balances: { endpoint: 'balances', perAccount: true, permission: (p) => p === 'ReadBalances' },
  transactions: { endpoint: 'transactions', perAccount: true, permission: (p) => p.startsWith('ReadTransactions') },
}

/**
 * What running `stepId` would spend of the PSU-absent allowance, before it runs: one row per call it would
 * make (in order), each with the allowance as it will stand when that call is made (under the per-consent
 * reading, the step's earlier calls take from the same four). Empty when the PSU is present, when the step
 * spends nothing, or when what it would call is not known yet (no consent, no account list).
 */
export function budgetBeforeStep(
  stepId: string,
  input: AisFlowInput,
  outputs: Pick<StepScope, 'has' | 'output'>,
  budget: PsuAbsentBudget,
): PsuAbsentBudgetDto[] {
  const spend = SPENDING_STEPS[stepId]
  if (input.psuPresent || !spend || !input.permissions.some(spend.permission) || !outputs.has(AIS_STEPS.consent))
    return []
  const consentId = outputs.output(AIS_STEPS.consent).consentId
  let accounts: Array<string | undefined> = [undefined]
  if (spend.perAccount) {
    if (!outputs.has(AIS_STEPS.accounts)) return []
    accounts = outputs.output(AIS_STEPS.accounts).accounts.map((a) => a.AccountId)
  }
  const spentBefore = new Map<string, number>()
  return accounts.map((accountId) => {
    const b = budget.budget(consentId, accountId, spend.endpoint)
    const key = b.keying === 'consent' ? consentId : `${accountId ?? ''}|${spend.endpoint}`
    const before = spentBefore.get(key) ?? 0
    spentBefore.set(key, before + 1)
    return {
      ...b,
      accountId,
      endpoint: spend.endpoint,
      used: b.used + before,
      remaining: Math.max(0, b.remaining - before),
    }
  })
}
