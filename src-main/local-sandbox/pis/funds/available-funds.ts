import { amountToUnits } from '../rules/amount.ts'
import type { SandboxStore } from '../../store/sandbox-store.ts'
import type { OpeningBalanceSource } from './seed-available-balance.ts'

/**
 * The funds an account has for a new payment at the current sandbox time, every payment the sandbox
 * already accepted from it taken off, in 10^-5 units; undefined for an account the sandbox does not hold.
 */
export type FundsSource = (accountId: string) => Promise<bigint | undefined>

/**
 * Funds from a balance that does not show the sandbox's payments (the seed table of accounts AIS does
 * not hold, see seed-available-balance.ts): the opening balance less every domestic payment the sandbox
 * accepted from the account (rejected payments take nothing).
 */
export function fundsLessPayments(
  opening: OpeningBalanceSource,
  payments: Pick<SandboxStore, 'paymentsFromAccount'>,
): FundsSource {
  return async (accountId) => {
    const start = opening(accountId)
    if (start === undefined) return undefined
    let spent = 0n
    for (const p of await payments.paymentsFromAccount(accountId)) {
      if (!p.rejection) spent += amountToUnits(p.initiation.InstructedAmount.Amount)
    }
    return start - spent
  }
}

/** Whether `amount` (an OB amount string) can be paid from `accountId` now. */
export async function hasFundsFor(accountId: string, amount: string, funds: FundsSource): Promise<boolean> {
  const available = await funds(accountId)
  return available !== undefined && available >= amountToUnits(amount)
}
