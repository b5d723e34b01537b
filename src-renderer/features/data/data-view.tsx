import { useEffect, useState } from 'react'
import { Busy } from '../../components/busy.tsx'
import { StepProgressLine } from '../../components/step-progress.tsx'
import { ErrorPanel } from '../../components/error-panel.tsx'
import { SelectField } from '../../components/select-field.tsx'
import { formatTime } from '../../lib/format.ts'
import { flowComplete } from '../../store/flows-slice.ts'
import { useApp } from '../../store/store.ts'
import { AccountDataList, BudgetPanel } from './account-data.tsx'
import { AccountsOverview, matchAccounts } from './accounts-overview.tsx'
import { TransactionsTable } from './transactions-table.tsx'

/** Account data of an AIS flow: accounts and balances, every transaction in one table, other resources and the PSU-absent budget. */
export default function DataView() {
  const flows = useApp((s) => s.flows)
  const order = useApp((s) => s.flowOrder)
  const activeId = useApp((s) => s.activeFlowId)
  const select = useApp((s) => s.selectFlow)
  const ais = order.filter((id) => flows[id]?.kind === 'ais')
  const flowId =
    activeId && flows[activeId]?.kind === 'ais' ? activeId : (ais.find((id) => flowComplete(flows[id])) ?? ais[0])
  const flow = flowId ? flows[flowId] : undefined
  const data = useApp((s) => (flowId ? s.accountData[flowId] : undefined))
  const budget = useApp((s) => (flowId ? s.budgets[flowId] : undefined))
  const op = useApp((s) => (flowId ? s.ops[`ais.accountData:${flowId}`] : undefined))
  const load = useApp((s) => s.loadAccountData)
  const loadBudget = useApp((s) => s.loadBudget)
  const [query, setQuery] = useState('')
  const complete = flowComplete(flow)
  useEffect(() => {
    if (flowId && complete && !data && !op) {
      void load(flowId)
      void loadBudget(flowId)
    }
  }, [flowId, complete, data, op, load, loadBudget])
  const running = flow?.steps.find((s) => s.status === 'running')
  return (
    <div className="view">
      <header className="view-head">
        <h1>Account data</h1>
      </header>
      {ais.length ? (
        <SelectField
          label="AIS flow"
          value={flowId ?? ''}
          options={ais.map((id) => ({
            value: id,
            label: `${formatTime(flows[id]!.createdAt)} · ${flowComplete(flows[id]) ? 'complete' : 'not complete'} · ${id}`,
          }))}
          onChange={select}
        />
      ) : (
        <p className="muted">No AIS flow yet. Run one from Consent flows or the Guide.</p>
      )}
      {running ? <StepProgressLine step={running} /> : null}
      {flow && !complete ? (
        <p className="muted">
          {running ? `“${running.title}” is running; ` : 'This flow has steps left to run; '}the data shows once every
          step is done.
        </p>
      ) : null}
      {op?.busy ? <Busy label="Reading account data…" /> : null}
      <ErrorPanel error={op?.error} title="Account data could not be read" />
      {budget ? <BudgetPanel budget={budget} environmentId={flow?.environmentId} accounts={data} /> : null}
      {data ? (
        <>
          {data.length ? <AccountsOverview data={data} query={query} onQuery={setQuery} /> : null}
          {data.length ? (
            <>
              <h2>Transactions</h2>
              <TransactionsTable data={data} />
            </>
          ) : null}
          {data.length ? <h2>Accounts in detail</h2> : null}
          <AccountDataList data={matchAccounts(data, query)} withTransactions={false} />
        </>
      ) : null}
    </div>
  )
}
