import type { PsuDirectory, SeedAccount } from '../../psus.ts'
import { amountToUnits } from '../rules/amount.ts'

/**
 * The available balance (GBP) of a seed account the AIS seed does not hold (savings accounts, which AIS
 * cannot share), by account type and category of `resources/local-sandbox/psus.json`; documented in
 * docs/local-sandbox/pis.md ("Funds"). Accounts AIS holds use its balance (ais-available-balance.ts).
 */
export const SEED_AVAILABLE_BALANCES: Readonly<Record<string, string>> = {
  'CACC/Personal': '2500.00',
  'CACC/Business': '15000.00',
  'SVGS/Personal': '12000.00',
  'SVGS/Business': '12000.00',
  /** A credit card's available credit. */
  'CARD/Personal': '3000.00',
  'CARD/Business': '3000.00',
}

/**
 * The funds an account has before the sandbox's PIS payments, in 10^-5 units; undefined for an account
 * the sandbox does not hold (available-funds.ts takes the payments off).
 */
export type OpeningBalanceSource = (accountId: string) => bigint | undefined

function seedKey(account: SeedAccount): string {
  return `${account.accountTypeCode}/${account.accountCategory}`
}

/** An {@link OpeningBalanceSource} over the seed PSUs' accounts and {@link SEED_AVAILABLE_BALANCES}. */
export function seedOpeningBalances(psus: PsuDirectory): OpeningBalanceSource {
  return (accountId) => {
    const found = psus.account(accountId)
    if (!found) return undefined
    const amount = SEED_AVAILABLE_BALANCES[seedKey(found.account)]
    return amount === undefined ? 0n : amountToUnits(amount)
  }
}
