import type { AisBank } from '../../ais/ais-bank.ts'
import { balanceView } from '../../ais/views/account-views.ts'
import type { SandboxClock } from '../../clock.ts'
import { amountToUnits } from '../rules/amount.ts'
import type { FundsSource } from './available-funds.ts'

/**
 * What the account can pay, from the balance AIS publishes at the current sandbox time (`balanceView`,
 * ITAV): for a credit card the credit still available (its `Available` credit line); for other accounts
 * ITAV plus the arranged overdraft (its `Pre-Agreed` line). Every payment the sandbox accepted from an
 * account AIS holds is a transaction on its ledger from the moment it is made (post-payment.ts), pending
 * then booked, so ITAV already has it taken off: nothing is subtracted here (subtracting the payments too
 * would count them twice). Accounts AIS does not hold (savings: not shareable through AIS) come from
 * `fallback`, which takes the payments off itself (`fundsLessPayments`).
 */
export function aisAvailableBalances(bank: AisBank, clock: SandboxClock, fallback: FundsSource): FundsSource {
  return async (accountId) => {
    const now = clock.nowMs()
    const account = bank.at(now).account(accountId)
    if (!account) return fallback(accountId)
    const view = balanceView(account, now)
    // A credit line's amount (the sandbox gives each line one; the schema leaves it optional).
    const lineAmount = (type: string) => view.CreditLine?.find((l) => l.Type === type)?.Amount
    const availableCredit = lineAmount('Available')
    if (availableCredit) return amountToUnits(availableCredit.Amount)
    const itav = amountToUnits(view.Amount.Amount) * (view.CreditDebitIndicator === 'Debit' ? -1n : 1n)
    const overdraft = lineAmount('Pre-Agreed')
    return itav + (overdraft ? amountToUnits(overdraft.Amount) : 0n)
  }
}
