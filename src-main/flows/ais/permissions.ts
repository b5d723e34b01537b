import type { CheckResult } from '../../contract/checks.ts'

/** The 21 account access permissions of Open Banking v4.0, with what each unlocks. */
export const AIS_PERMISSIONS = {
  ReadAccountsBasic: 'Accounts: basic fields (no account identifiers).',
  ReadAccountsDetail: 'Accounts: with account identifiers (sort code and account number, PAN) and servicer.',
  ReadBalances: 'Balances of each account.',
  ReadBeneficiariesBasic: 'Beneficiaries without creditor account details.',
  ReadBeneficiariesDetail: 'Beneficiaries with creditor account details.',
  ReadDirectDebits: 'Direct debits.',
  ReadOffers: 'Offers (credit card only at this bank).',
  ReadPAN: 'The unmasked card number (PAN); without it the PAN is masked.',
  ReadParty: 'The account owner party (/accounts/{id}/party and /parties).',
  ReadPartyPSU: "The PSU's own party (/party).",
  ReadProducts: 'Product details.',
  ReadScheduledPaymentsBasic: 'Scheduled payments without creditor details.',
  ReadScheduledPaymentsDetail: 'Scheduled payments with creditor details.',
  ReadStandingOrdersBasic: 'Standing orders without creditor details.',
  ReadStandingOrdersDetail: 'Standing orders with creditor details.',
  ReadStatementsBasic: 'Statements without amounts.',
  ReadStatementsDetail: 'Statements with amounts, and statement files.',
  ReadTransactionsBasic: 'Transactions without narrative and counterparty details.',
  ReadTransactionsCredits: 'Credit transactions (needs ReadTransactionsBasic or Detail).',
  ReadTransactionsDebits: 'Debit transactions (needs ReadTransactionsBasic or Detail).',
  ReadTransactionsDetail: 'Transactions with narrative, balances, merchant and counterparty details.',
} as const

export type AisPermission = keyof typeof AIS_PERMISSIONS

/** What the console asks for by default: everything this bank serves. */
export const DEFAULT_AIS_PERMISSIONS: AisPermission[] = [
  'ReadAccountsDetail',
  'ReadBalances',
  'ReadBeneficiariesDetail',
  'ReadDirectDebits',
  'ReadOffers',
  'ReadParty',
  'ReadPartyPSU',
  'ReadStandingOrdersDetail',
  'ReadStatementsDetail',
  'ReadTransactionsCredits',
  'ReadTransactionsDebits',
  'ReadTransactionsDetail',
]

/**
 * Checks a permission set against the v4.0 rules a bank rejects with 400: empty; unknown codes;
 * Transactions Basic/Detail without Credits or Debits; Credits/Debits without Basic or Detail; neither
 * ReadAccountsBasic nor ReadAccountsDetail. One check per rule, so a picker can show each.
 */
export function checkPermissions(permissions: readonly string[]): CheckResult[] {
  const set = new Set(permissions)
  const unknown = permissions.filter((p) => !(p in AIS_PERMISSIONS))
  const txKind = set.has('ReadTransactionsBasic') || set.has('ReadTransactionsDetail')
  const txDirection = set.has('ReadTransactionsCredits') || set.has('ReadTransactionsDebits')
  return [
    {
      name: 'at least one permission',
      pass: set.size > 0,
      expected: '1 or more',
      actual: String(set.size),
      hint: 'Pick the permissions the TPP needs; a consent with none is rejected.',
    },
    {
      name: 'known permission codes',
      pass: unknown.length === 0,
      expected: 'v4.0 permission codes',
      actual: unknown.length ? unknown.join(', ') : 'all known',
      hint: `Remove ${unknown.join(', ')}: v4.0 defines only the 21 Read* codes.`,
    },
    {
      name: 'accounts permission',
      pass: set.has('ReadAccountsBasic') || set.has('ReadAccountsDetail'),
      expected: 'ReadAccountsBasic or ReadAccountsDetail',
      actual: set.has('ReadAccountsBasic') || set.has('ReadAccountsDetail') ? 'present' : 'neither',
      hint: 'Add ReadAccountsDetail (or Basic): every consent needs one.',
    },
    {
      name: 'transactions: kind with direction',
      pass: !txKind || txDirection,
      expected: 'ReadTransactionsCredits and/or Debits with Basic/Detail',
      actual: txKind && !txDirection ? 'Basic/Detail alone' : 'consistent',
      hint: 'Add ReadTransactionsCredits and/or ReadTransactionsDebits.',
    },
    {
      name: 'transactions: direction with kind',
      pass: !txDirection || txKind,
      expected: 'ReadTransactionsBasic or Detail with Credits/Debits',
      actual: txDirection && !txKind ? 'Credits/Debits alone' : 'consistent',
      hint: 'Add ReadTransactionsDetail (or Basic).',
    },
  ]
}
