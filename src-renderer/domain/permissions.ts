/**
 * The 21 account access permissions of Open Banking v4.0 and the rules a bank enforces on a set of
 * them, for the AIS permissions picker (the engine checks the same rules again when the consent is made).
 */

export interface PermissionInfo {
  code: string
  group: string
  description: string
}

export const AIS_PERMISSIONS: PermissionInfo[] = [
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
export const DEFAULT_PERMISSIONS = [
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

export interface PermissionRule {
  rule: string
  pass: boolean
  /** What to change when it fails. */
  fix: string
}

/** The v4.0 rules on a permission set, one entry per rule, for display next to the picker. */
export function permissionRules(selected: readonly string[]): PermissionRule[] {
  const s = new Set(selected)
  const kind = s.has('ReadTransactionsBasic') || s.has('ReadTransactionsDetail')
  const direction = s.has('ReadTransactionsCredits') || s.has('ReadTransactionsDebits')
  return [
    { rule: 'At least one permission', pass: s.size > 0, fix: 'Pick the permissions the TPP needs.' },
    {
      rule: 'ReadAccountsBasic or ReadAccountsDetail is present',
      pass: s.has('ReadAccountsBasic') || s.has('ReadAccountsDetail'),
      fix: 'Add ReadAccountsDetail (or Basic): every consent needs one.',
    },
    {
      rule: 'Transactions Basic/Detail come with Credits and/or Debits',
      pass: !kind || direction,
      fix: 'Add ReadTransactionsCredits and/or ReadTransactionsDebits.',
    },
    {
      rule: 'Transactions Credits/Debits come with Basic or Detail',
      pass: !direction || kind,
      fix: 'Add ReadTransactionsDetail (or Basic).',
    },
  ]
}
