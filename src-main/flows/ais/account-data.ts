import type { StepScope } from '../step-machine.ts'
import type { AccountDataDto } from '../../contract/ais-data.ts'
import { AIS_STEPS } from './ais-context.ts'
import { keptRows } from './transaction-rows.ts'

/** The data views' shape, assembled from the steps that have run. */
export function accountData(outputs: Pick<StepScope, 'has' | 'output'>): AccountDataDto[] {
  if (!outputs.has(AIS_STEPS.accounts)) return []
  const { accounts } = outputs.output(AIS_STEPS.accounts)
  const balances = outputs.has(AIS_STEPS.balances) ? outputs.output(AIS_STEPS.balances) : {}
  const txs = outputs.has(AIS_STEPS.transactions) ? outputs.output(AIS_STEPS.transactions) : {}
  const resources = outputs.has(AIS_STEPS.resources) ? outputs.output(AIS_STEPS.resources) : {}
  return accounts.map((a) => {
    const t = txs[a.AccountId]
    return {
      accountId: a.AccountId,
      accountTypeCode: a.AccountTypeCode,
      nickname: a.Nickname,
      currency: a.Currency,
      account: { ...a },
      balances: balances[a.AccountId] ?? [],
      transactions: {
        items: keptRows(txs, a.AccountId),
        pages: t?.pages ?? 0,
        total: t?.total ?? 0,
        pendingMatched: t?.matches.length ?? 0,
      },
      resources: resources[a.AccountId] ?? [],
    }
  })
}
