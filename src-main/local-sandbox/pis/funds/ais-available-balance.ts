import type { AisBank } from '../../ais/ais-bank.ts'
import { balanceView } from '../../ais/views/account-views.ts'
import type { SandboxClock } from '../../clock.ts'
import { amountToUnits } from '../rules/amount.ts'
import type { OpeningBalanceSource } from './seed-available-balance.ts'

interface BalanceAmount {
  Amount: string
}

interface BalanceView {
  CreditDebitIndicator: 'Credit' | 'Debit'
  Amount: BalanceAmount
  CreditLine?: Array<{ Type: string; Amount: BalanceAmount }>
}

/**
 * What the account can pay before the sandbox's PIS payments, from the balance AIS publishes at the
 * current sandbox time (`balanceView`, ITAV): for a credit card the credit still available (its
 * `Available` credit line); for other accounts ITAV plus the arranged overdraft (its `Pre-Agreed` line).
 * Accounts AIS does not hold (savings: not shareable through AIS) come from `fallback`.
 */
export function aisAvailableBalances(bank: AisBank, clock: SandboxClock, fallback: OpeningBalanceSource): OpeningBalanceSource {
  return (accountId) => {
    const now = clock.nowMs()
    const account = bank.at(now).account(accountId)
    if (!account) return fallback(accountId)
    const view = balanceView(account, now) as unknown as BalanceView
    const line = (type: string) => view.CreditLine?.find((l) => l.Type === type)
    const availableCredit = line('Available')
    if (availableCredit) return amountToUnits(availableCredit.Amount.Amount)
    const itav = amountToUnits(view.Amount.Amount) * (view.CreditDebitIndicator === 'Debit' ? -1n : 1n)
    const overdraft = line('Pre-Agreed')
    return itav + (overdraft ? amountToUnits(overdraft.Amount.Amount) : 0n)
  }
}
