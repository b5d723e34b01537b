import type { AccountDataDto, ResourceOutcomeDto } from '../../contract/ais-data.ts'
import { AIS_STEPS, type AccountsOutput } from './ais-context.ts'
import { keptRows, type TransactionsOutput } from './transaction-rows.ts'

/** The data views' shape, assembled from the steps that have run. */
export function accountData(outputs: { has(id: string): boolean; output<T>(id: string): T }): AccountDataDto[] {
  if (!outputs.has(AIS_STEPS.accounts)) return []
  const { accounts } = outputs.output<AccountsOutput>(AIS_STEPS.accounts)
  const balances = outputs.has(AIS_STEPS.balances)
    ? outputs.output<Record<string, Array<Record<string, unknown>>>>(AIS_STEPS.balances)
    : {}
  const txs = outputs.has(AIS_STEPS.transactions) ? outputs.output<TransactionsOutput>(AIS_STEPS.transactions) : {}
  const resources = outputs.has(AIS_STEPS.resources)
    ? outputs.output<Record<string, ResourceOutcomeDto[]>>(AIS_STEPS.resources)
    : {}
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
