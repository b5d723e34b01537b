import { useEffect } from 'react'
import type { FlowState, StepState } from '../../../src-main/contract/flows.ts'
import { useApp } from '../../store/store.ts'
import { useEnvironmentNow } from '../../store/use-environment-now.ts'
import { beforeCallWords } from './budget-before-words.ts'

/** The AIS steps that call the exempt endpoints (the only ones a PSU-absent call counts against). */
const SPENDING = new Set(['accounts', 'balances', 'transactions'])

/**
 * On an AIS step that spends the PSU-absent allowance, before it runs (or runs again): one line per call it
 * will make, with what is left and when the next access comes back. Read again whenever a step of the flow
 * changes state; nothing shows for a present PSU or a step that spends nothing.
 */
export function BudgetBefore({ flow, step }: { flow: FlowState; step: StepState }) {
  const key = `${flow.id}:${step.id}`
  const rows = useApp((s) => s.budgetsBefore[key])
  const load = useApp((s) => s.loadBudgetBefore)
  // The console counts these calls on the environment's clock (the local sandbox's, moved or not).
  const now = useEnvironmentNow(flow.environmentId)
  const spends = flow.kind === 'ais' && SPENDING.has(step.id)
  const version = flow.steps.map((s) => s.status).join(',')
  useEffect(() => {
    if (spends && step.status !== 'running') void load(flow.id, step.id)
  }, [spends, version, flow.id, step.id, step.status, load])
  if (!spends || step.status === 'running' || !rows?.length) return null
  return (
    <div className="budget-before small" role="note" aria-label={`PSU-absent allowance before ${step.title}`}>
      <strong>{step.status === 'idle' ? 'Before it runs' : 'If run again'}, with the PSU absent:</strong>
      <ul>
        {rows.map((b, i) => {
          const w = beforeCallWords(b, now)
          return (
            <li key={`${b.accountId ?? 'list'}-${i}`} className={w.refused ? 'text-fail' : undefined}>
              {w.text}
            </li>
          )
        })}
      </ul>
    </div>
  )
}
