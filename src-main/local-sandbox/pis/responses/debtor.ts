import type { PsuDirectory } from '../../psus.ts'

/** The debtor account as PIS responses show it (`Debtor`, `Refund.Account`): scheme, identification, owner's name. */
export interface DebtorAccountView {
  SchemeName: string
  Identification: string
  Name: string
}

/** The view of a seed account, or undefined when the sandbox holds no such account. */
export function debtorAccountView(psus: PsuDirectory, accountId: string | undefined): DebtorAccountView | undefined {
  if (!accountId) return undefined
  const found = psus.account(accountId)
  if (!found) return undefined
  return { SchemeName: found.account.scheme, Identification: found.account.identification, Name: found.psu.name }
}
