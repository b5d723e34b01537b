import type { OBAccount6, OBReadBalance1 } from '../../../plumbing/ob-wire/account-info.ts'
import type { BankAccount } from '../ais-bank.ts'
import type { GrantedPermissions } from '../consents/permissions.ts'
import type { Catalogue } from '../seed/catalogue.ts'
import { creditDebit, obAmount, toPence } from '../seed/money.ts'
import { iso, panFor } from './format.ts'

/**
 * `OBAccount6` of an account. `ReadAccountsDetail` adds `Account[]` (the identification: sort code and
 * account number, or the PAN, masked without ReadPAN) and `Servicer`.
 */
export function accountView(a: BankAccount, p: GrantedPermissions, catalogue: Catalogue): OBAccount6 {
  const acc = a.account
  const view: OBAccount6 = {
    AccountId: acc.accountId,
    Status: 'Enabled',
    StatusUpdateDateTime: iso(Date.parse(`${acc.openingDate}T00:00:00Z`)),
    Currency: acc.currency,
    AccountCategory: acc.accountCategory,
    AccountTypeCode: acc.accountTypeCode,
    Description: acc.description,
    Nickname: acc.nickname,
    // The official v4.0 file types OpeningDate as a date-time (ISODateTime), not a date.
    OpeningDate: iso(Date.parse(`${acc.openingDate}T00:00:00Z`)),
  }
  if (acc.accountTypeCode === 'CACC') view.SwitchStatus = 'UK.CASS.NotSwitched'
  if (p.detail('Accounts')) {
    const identification = acc.scheme === 'UK.OBIE.PAN' ? panFor(acc.identification, p.pan) : acc.identification
    view.Account = [{ SchemeName: acc.scheme, Identification: identification, Name: a.spec.accountName }]
    view.Servicer = { SchemeName: catalogue.servicer.SchemeName, Identification: catalogue.servicer.Identification }
  }
  return view
}

/** One balance of the v4.0 balances answer. */
export type BalanceView = OBReadBalance1['Data']['Balance'][number]

/**
 * The one balance the bank publishes, ITAV (interim available): the booked balance less pending debits,
 * the figure the bank's app shows. A credit card's balance is what is owed (Debit), with its credit limit
 * and the credit still available as credit lines; a current account with an arranged overdraft shows it
 * as a Pre-Agreed credit line. Credit lines are never included in the amount.
 */
export function balanceView(a: BankAccount, nowMs: number): BalanceView {
  const booked = a.ledger.bookedBalanceAt(nowMs)
  const pendingDebits = a.ledger.pendingAt(nowMs).reduce((sum, e) => sum + (e.pence < 0 ? e.pence : 0), 0)
  const available = booked + pendingDebits
  const view: BalanceView = {
    AccountId: a.account.accountId,
    CreditDebitIndicator: creditDebit(available),
    Type: 'ITAV',
    DateTime: iso(nowMs),
    Amount: obAmount(available, a.account.currency),
  }
  if (a.spec.card) {
    const limit = toPence(a.spec.card.creditLimit)
    view.CreditLine = [
      { Included: false, Type: 'Credit', Amount: obAmount(limit, a.account.currency) },
      { Included: false, Type: 'Available', Amount: obAmount(Math.max(0, limit + available), a.account.currency) },
    ]
  } else if (a.spec.overdraftLimit) {
    view.CreditLine = [
      { Included: false, Type: 'Pre-Agreed', Amount: obAmount(toPence(a.spec.overdraftLimit), a.account.currency) },
    ]
  }
  return view
}
