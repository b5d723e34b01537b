import type { OBCashAccount6_0, OBTransaction6 } from '../../../plumbing/ob-wire/account-info.ts'
import type { BankAccount } from '../ais-bank.ts'
import type { GrantedPermissions } from '../consents/permissions.ts'
import { transactionId, type Counterparty, type LedgerEntry } from '../seed/ledger.ts'
import { amountString, creditDebit, obAmount } from '../seed/money.ts'
import { iso, panFor } from './format.ts'

/** Issuer of the sandbox's ProprietaryBankTransactionCode values. */
export const PROPRIETARY_CODE_ISSUER = 'OBConsoleSandboxBank'

function party(c: Counterparty): OBCashAccount6_0 {
  return c.account
    ? { SchemeName: c.scheme ?? 'UK.OBIE.SortCodeAccountNumber', Identification: c.account, Name: c.name }
    : { Name: c.name }
}

/**
 * `OBTransaction6` of a ledger entry as seen at `nowMs`. Pending (`PDNG`) until it books, then `BOOK`;
 * the booked representation carries a different `TransactionId` (the bank's rule) but the same
 * `TransactionReference`, amount and merchant. `ReadTransactionsDetail` adds `TransactionInformation`,
 * the running `Balance` (booked transactions only), `MerchantDetails` and the counterparty's account.
 */
export function transactionView(e: LedgerEntry, a: BankAccount, p: GrantedPermissions, nowMs: number): OBTransaction6 {
  const pending = e.bookAt > nowMs
  const currency = a.account.currency
  const statement = !pending && e.statement && e.statement.issuedAt <= nowMs ? e.statement : undefined
  const tx: OBTransaction6 = {
    AccountId: a.account.accountId,
    TransactionId: transactionId(a.ledger, e, pending),
    TransactionReference: e.reference,
    ...(statement ? { StatementReference: [statement.reference] } : {}),
    CreditDebitIndicator: e.pence >= 0 ? 'Credit' : 'Debit',
    Status: pending ? 'PDNG' : 'BOOK',
    TransactionMutability: pending ? 'Mutable' : 'Immutable',
    BookingDateTime: iso(e.bookAt),
    ValueDateTime: iso(e.pence > 0 && e.bookAt > e.authAt && e.code === 'CHQ' ? e.bookAt : e.authAt),
    ...(p.detail('Transactions') ? { TransactionInformation: e.info } : {}),
    ...(e.merchant ? { AddressLine: `${e.merchant.town} ${e.merchant.country}` } : {}),
    Amount: obAmount(e.pence, currency),
    ...(e.fx
      ? {
          CurrencyExchange: {
            SourceCurrency: e.fx.currency,
            TargetCurrency: currency,
            UnitCurrency: currency,
            ExchangeRate: e.fx.ratePerGbp,
            InstructedAmount: { Amount: amountString(e.fx.minor), Currency: e.fx.currency },
          },
        }
      : {}),
    BankTransactionCode: e.btc,
    ProprietaryBankTransactionCode: { Code: e.code, Issuer: PROPRIETARY_CODE_ISSUER },
  }
  if (p.detail('Transactions')) {
    if (!pending)
      tx.Balance = {
        CreditDebitIndicator: creditDebit(e.balanceAfter),
        Type: 'ITBD',
        Amount: obAmount(e.balanceAfter, currency),
      }
    if (e.merchant) tx.MerchantDetails = { MerchantName: e.merchant.name, MerchantCategoryCode: e.merchant.mcc }
    if (e.creditor) tx.CreditorAccount = party(e.creditor)
    if (e.debtor) tx.DebtorAccount = party(e.debtor)
  }
  if (e.cardAuth && a.cardPan && a.cardScheme) {
    tx.CardInstrument = {
      CardSchemeName: a.cardScheme,
      AuthorisationType: e.cardAuth,
      Name: a.spec.accountName,
      Identification: panFor(a.cardPan, p.pan),
    }
  }
  return tx
}

/**
 * `transactionView` serialised, cached per entry and variant: a transaction's view depends only on its
 * state (pending or booked, statement issued or not) and the consent's Detail and ReadPAN permissions, so a
 * page is assembled from cached JSON and the transactions endpoint stays cheap under load.
 */
export function transactionJson(e: LedgerEntry, a: BankAccount, p: GrantedPermissions, nowMs: number): string {
  const pending = e.bookAt > nowMs
  const statementShown = !pending && e.statement !== undefined && e.statement.issuedAt <= nowMs
  const variant = (pending ? 1 : 0) | (statementShown ? 2 : 0) | (p.detail('Transactions') ? 4 : 0) | (p.pan ? 8 : 0)
  const cache = (e.viewCache ??= [])
  return (cache[variant] ??= JSON.stringify(transactionView(e, a, p, nowMs)))
}
