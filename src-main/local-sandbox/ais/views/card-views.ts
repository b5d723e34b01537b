import type { OBReadOffer1, OBStatement2 } from '../../../plumbing/ob-wire/account-info.ts'
import type { BankAccount } from '../ais-bank.ts'
import type { GrantedPermissions } from '../consents/permissions.ts'
import { DAY_MS } from '../seed/calendar.ts'
import type { StatementRecord } from '../seed/card-account-generator.ts'
import { creditDebit, obAmount, toPence } from '../seed/money.ts'
import { iso } from './format.ts'

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
]

/** One offer of the v4.0 offers answer. */
export type OfferView = NonNullable<OBReadOffer1['Data']['Offer']>[number]

/** The card's offers that are open at `nowMs` (each runs between dates relative to the history's anchor day). */
export function offerViews(a: BankAccount, anchorMs: number, nowMs: number): OfferView[] {
  const out: OfferView[] = []
  for (const o of a.spec.offers ?? []) {
    const start = anchorMs + o.startOffsetDays * DAY_MS
    const end = anchorMs + o.endOffsetDays * DAY_MS
    if (start > nowMs || end <= nowMs) continue
    out.push({
      AccountId: a.account.accountId,
      OfferId: o.OfferId,
      OfferType: o.OfferType,
      Description: o.Description,
      StartDateTime: iso(start),
      EndDateTime: iso(end),
      ...(o.Rate !== undefined ? { Rate: o.Rate } : {}),
      ...(o.Value !== undefined ? { Value: o.Value } : {}),
      ...(o.Term !== undefined ? { Term: o.Term } : {}),
      ...(o.URL !== undefined ? { URL: o.URL } : {}),
      ...(o.Amount !== undefined ? { Amount: obAmount(toPence(o.Amount), a.account.currency) } : {}),
    })
  }
  return out
}

/**
 * `OBStatement2` of a monthly credit card statement. `ReadStatementsDetail` adds `StatementAmount`
 * (balances and totals); dates, rates, interest, cashback and counts are basic.
 */
export function statementView(s: StatementRecord, a: BankAccount, p: GrantedPermissions): OBStatement2 {
  const cur = a.account.currency
  const month = new Date(s.end - 1)
  const view: OBStatement2 = {
    AccountId: s.accountId,
    StatementId: s.id,
    StatementReference: s.reference,
    Type: 'RegularPeriodic',
    StartDateTime: iso(s.start),
    EndDateTime: iso(s.end - 1000),
    CreationDateTime: iso(s.issuedAt),
    StatementDescription: [
      `${a.spec.product.ProductName} statement, ${MONTHS[month.getUTCMonth()]} ${month.getUTCFullYear()}`,
    ],
  }
  if (s.cashbackPence > 0)
    view.StatementBenefit = [{ Type: 'UK.OBIE.Cashback', Amount: obAmount(s.cashbackPence, cur) }]
  if (s.interestPence > 0)
    view.StatementInterest = [
      { CreditDebitIndicator: 'Debit', Type: 'UK.OBIE.Purchase', Amount: obAmount(s.interestPence, cur) },
    ]
  view.StatementDateTime = [
    { DateTime: iso(s.issuedAt), Type: 'UK.OBIE.StatementAvailable' },
    { DateTime: iso(s.dueAt), Type: 'UK.OBIE.PaymentDue' },
  ]
  view.StatementRate = [
    { Rate: String(s.purchaseApr), Type: 'UK.OBIE.AnnualPurchase' },
    { Rate: String(s.cashApr), Type: 'UK.OBIE.AnnualCash' },
  ]
  // Value is a Max40Text string in the official file (a count written as text).
  view.StatementValue = [
    { Value: String(s.creditCount), Type: 'UK.OBIE.Credits' },
    { Value: String(s.debitCount), Type: 'UK.OBIE.Debits' },
  ]
  if (p.detail('Statements')) {
    const amount = (pence: number, type: string, indicator = creditDebit(pence)) => ({
      CreditDebitIndicator: indicator,
      Type: type,
      Amount: obAmount(pence, cur),
    })
    view.StatementAmount = [
      amount(s.openingPence, 'UK.OBIE.PreviousClosingBalance'),
      amount(s.closingPence, 'UK.OBIE.ClosingBalance'),
      amount(s.purchasesPence, 'UK.OBIE.TotalPurchases', 'Debit'),
      amount(s.creditsPence, 'UK.OBIE.TotalCredits', 'Credit'),
      amount(s.paymentsPence, 'UK.OBIE.CurrentPayment', 'Credit'),
      amount(s.minimumDuePence, 'UK.OBIE.MinimumPaymentDue', 'Debit'),
      amount(s.creditLimitPence, 'UK.OBIE.CreditLimit', 'Credit'),
      amount(Math.max(0, s.creditLimitPence + s.closingPence), 'UK.OBIE.AvailableBalance', 'Credit'),
    ]
  }
  return view
}
