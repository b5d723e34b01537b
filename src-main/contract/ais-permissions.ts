/**
 * The 21 account access permissions of Open Banking v4.0 and the rules a bank enforces on a set of them
 * (it rejects a consent that breaks one with 400). One list for both sides: the AIS permissions picker
 * shows them and checks the rules as you pick; the engine checks the same rules again before it sends a
 * consent.
 */
import type { CheckResult } from './checks.ts'

export interface PermissionInfo {
  code: string
  group: string
  description: string
}

export const AIS_PERMISSIONS: readonly PermissionInfo[] = [
  { code: 'ReadAccountsBasic', group: 'Accounts', description: 'Accounts without account identifiers.' },
  {
    code: 'ReadAccountsDetail',
    group: 'Accounts',
    description: 'Accounts with identifiers (sort code and account number, PAN) and servicer.',
  },
  {
    code: 'ReadBalances',
    group: 'Balances',
    description: 'Balances of each account (ITAV; the card also shows its credit line).',
  },
  {
    code: 'ReadTransactionsBasic',
    group: 'Transactions',
    description: 'Transactions without narrative and counterparty details.',
  },
  {
    code: 'ReadTransactionsDetail',
    group: 'Transactions',
    description: 'Transactions with narrative, merchant and counterparty details.',
  },
  {
    code: 'ReadTransactionsCredits',
    group: 'Transactions',
    description: 'Credit transactions (with Basic or Detail).',
  },
  { code: 'ReadTransactionsDebits', group: 'Transactions', description: 'Debit transactions (with Basic or Detail).' },
  {
    code: 'ReadBeneficiariesBasic',
    group: 'Beneficiaries',
    description: 'Beneficiaries without creditor account details (current account only here).',
  },
  {
    code: 'ReadBeneficiariesDetail',
    group: 'Beneficiaries',
    description: 'Beneficiaries with creditor account details (current account only here).',
  },
  { code: 'ReadDirectDebits', group: 'Payments out', description: 'Direct debits (current account only here).' },
  {
    code: 'ReadStandingOrdersBasic',
    group: 'Payments out',
    description: 'Standing orders without creditor details (current account only here).',
  },
  {
    code: 'ReadStandingOrdersDetail',
    group: 'Payments out',
    description: 'Standing orders with creditor details (current account only here).',
  },
  {
    code: 'ReadScheduledPaymentsBasic',
    group: 'Payments out',
    description: 'Scheduled payments without creditor details.',
  },
  {
    code: 'ReadScheduledPaymentsDetail',
    group: 'Payments out',
    description: 'Scheduled payments with creditor details.',
  },
  {
    code: 'ReadStatementsBasic',
    group: 'Statements',
    description: 'Statements without amounts (credit card only here).',
  },
  {
    code: 'ReadStatementsDetail',
    group: 'Statements',
    description: 'Statements with amounts and files (credit card only here).',
  },
  { code: 'ReadOffers', group: 'Other', description: 'Offers (credit card only here).' },
  { code: 'ReadParty', group: 'Other', description: 'The account owner party.' },
  { code: 'ReadPartyPSU', group: 'Other', description: "The PSU's own party." },
  { code: 'ReadProducts', group: 'Other', description: 'Product details.' },
  { code: 'ReadPAN', group: 'Other', description: 'The unmasked card number; without it the PAN is masked.' },
]

/** What the console asks for by default: everything this bank serves. */
export const DEFAULT_AIS_PERMISSIONS: readonly string[] = [
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
 * Checks a permission set against the v4.0 rules, one check per rule (`name` says the rule in words a
 * picker can show, `hint` what to change): at least one; only known codes; ReadAccountsBasic or Detail;
 * transactions Basic/Detail with Credits and/or Debits, and the reverse.
 */
export function checkPermissions(permissions: readonly string[]): CheckResult[] {
  const set = new Set(permissions)
  const known = new Set(AIS_PERMISSIONS.map((p) => p.code))
  const unknown = permissions.filter((p) => !known.has(p))
  const accounts = set.has('ReadAccountsBasic') || set.has('ReadAccountsDetail')
  const txKind = set.has('ReadTransactionsBasic') || set.has('ReadTransactionsDetail')
  const txDirection = set.has('ReadTransactionsCredits') || set.has('ReadTransactionsDebits')
  return [
    {
      name: 'At least one permission',
      pass: set.size > 0,
      expected: '1 or more',
      actual: String(set.size),
      hint: 'Pick the permissions the TPP needs; a consent with none is rejected.',
    },
    {
      name: 'Only v4.0 permission codes',
      pass: unknown.length === 0,
      expected: 'v4.0 permission codes',
      actual: unknown.length ? unknown.join(', ') : 'all known',
      hint: `Remove ${unknown.join(', ')}: v4.0 defines only the 21 Read* codes.`,
    },
    {
      name: 'ReadAccountsBasic or ReadAccountsDetail is present',
      pass: accounts,
      expected: 'ReadAccountsBasic or ReadAccountsDetail',
      actual: accounts ? 'present' : 'neither',
      hint: 'Add ReadAccountsDetail (or Basic): every consent needs one.',
    },
    {
      name: 'Transactions Basic/Detail come with Credits and/or Debits',
      pass: !txKind || txDirection,
      expected: 'ReadTransactionsCredits and/or Debits with Basic/Detail',
      actual: txKind && !txDirection ? 'Basic/Detail alone' : 'consistent',
      hint: 'Add ReadTransactionsCredits and/or ReadTransactionsDebits.',
    },
    {
      name: 'Transactions Credits/Debits come with Basic or Detail',
      pass: !txDirection || txKind,
      expected: 'ReadTransactionsBasic or Detail with Credits/Debits',
      actual: txDirection && !txKind ? 'Credits/Debits alone' : 'consistent',
      hint: 'Add ReadTransactionsDetail (or Basic).',
    },
  ]
}
