import { amountToUnits } from '../rules/amount.ts'
import type { PaymentStore } from '../store/payment-store.ts'
import type { OpeningBalanceSource } from './seed-available-balance.ts'

/**
 * The funds available on an account for a new payment: what the bank holds as available for it (see
 * {@link OpeningBalanceSource}) less every domestic payment the sandbox accepted from it (rejected
 * payments take nothing). Amounts in 10^-5 units; undefined for an account the sandbox does not hold.
 */
export function availableFunds(accountId: string, opening: OpeningBalanceSource, payments: PaymentStore): bigint | undefined {
  const start = opening(accountId)
  if (start === undefined) return undefined
  let spent = 0n
  for (const p of payments.fromAccount(accountId)) {
    if (!p.rejection) spent += amountToUnits(p.initiation.InstructedAmount.Amount)
  }
  return start - spent
}

/** Whether `amount` (an OB amount string) can be paid from `accountId` now. */
export function hasFundsFor(accountId: string, amount: string, opening: OpeningBalanceSource, payments: PaymentStore): boolean {
  const available = availableFunds(accountId, opening, payments)
  return available !== undefined && available >= amountToUnits(amount)
}
