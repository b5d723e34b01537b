import { useEffect } from 'react'
import { Busy } from '../../components/busy.tsx'
import { ErrorPanel } from '../../components/error-panel.tsx'
import { Field } from '../../components/field.tsx'
import { formatTime } from '../../lib/format.ts'
import { flowComplete } from '../../store/flows-slice.ts'
import { useApp } from '../../store/store.ts'
import { AccountDataList, BudgetPanel } from './account-data.tsx'

/** Account data of an AIS flow: accounts, balances, transactions, other resources and the PSU-absent budget. */
export function DataView() {
  const flows = useApp((s) => s.flows)
  const order = useApp((s) => s.flowOrder)
  const activeId = useApp((s) => s.activeFlowId)
  const select = useApp((s) => s.selectFlow)
  const ais = order.filter((id) => flows[id]?.kind === 'ais')
  const flowId = activeId && flows[activeId]?.kind === 'ais' ? activeId : ais.find((id) => flowComplete(flows[id]))
  const data = useApp((s) => (flowId ? s.accountData[flowId] : undefined))
  const budget = useApp((s) => (flowId ? s.budgets[flowId] : undefined))
  const op = useApp((s) => (flowId ? s.ops[`ais.accountData:${flowId}`] : undefined))
  const load = useApp((s) => s.loadAccountData)
  const loadBudget = useApp((s) => s.loadBudget)
  const complete = flowComplete(flowId ? flows[flowId] : undefined)
  useEffect(() => {
    if (flowId && complete && !data && !op) {
      void load(flowId)
      void loadBudget(flowId)
    }
  }, [flowId, complete, data, op, load, loadBudget])
  return (
    <div className="view">
      <header className="view-head"><h2>Account data</h2></header>
      {ais.length ? (
        <Field label="AIS flow">{(id) => (
          <select id={id} value={flowId ?? ''} onChange={(e) => select(e.target.value)}>
            {ais.map((id) => <option key={id} value={id}>{formatTime(flows[id]!.createdAt)} · {flowComplete(flows[id]) ? 'complete' : 'not complete'} · {id}</option>)}
          </select>
        )}</Field>
      ) : <p className="muted">No AIS flow yet. Run one from Consent flows or the Guide.</p>}
      {flowId && !complete ? <p className="muted">This flow has steps left to run; the data shows once every step is done.</p> : null}
      {op?.busy ? <Busy label="Reading account data…" /> : null}
      <ErrorPanel error={op?.error} title="Account data could not be read" />
      {budget ? <BudgetPanel budget={budget} /> : null}
      {data ? <AccountDataList data={data} /> : null}
    </div>
  )
}
