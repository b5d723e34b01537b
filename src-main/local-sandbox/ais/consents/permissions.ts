import { ObApiError } from '../../http/ob-error.ts'

/** The 21 permission codes of v4.0 (OBInternalPermissions1Code); the sandbox supports all of them. */
export const PERMISSIONS = [
  'ReadAccountsBasic',
  'ReadAccountsDetail',
  'ReadBalances',
  'ReadBeneficiariesBasic',
  'ReadBeneficiariesDetail',
  'ReadDirectDebits',
  'ReadOffers',
  'ReadPAN',
  'ReadParty',
  'ReadPartyPSU',
  'ReadProducts',
  'ReadScheduledPaymentsBasic',
  'ReadScheduledPaymentsDetail',
  'ReadStandingOrdersBasic',
  'ReadStandingOrdersDetail',
  'ReadStatementsBasic',
  'ReadStatementsDetail',
  'ReadTransactionsBasic',
  'ReadTransactionsCredits',
  'ReadTransactionsDebits',
  'ReadTransactionsDetail',
] as const

export type Permission = (typeof PERMISSIONS)[number]

const KNOWN = new Set<string>(PERMISSIONS)

/**
 * Checks a consent request's permission list against the v4.0 rules (the Account and Transaction API
 * profile): not empty, only known codes, at least one of the accounts permissions, transaction
 * Basic/Detail together with Credits and/or Debits and the other way round. Throws 400 naming the rule.
 * Basic and Detail of the same cluster together are allowed (Detail implies Basic).
 */
export function validatePermissions(permissions: string[]): void {
  const path = 'Data.Permissions'
  if (permissions.length === 0) {
    throw new ObApiError(400, {
      code: 'U004',
      path,
      message: 'Data.Permissions is empty: list at least ReadAccountsBasic or ReadAccountsDetail',
    })
  }
  const unknown = permissions.map((p, i) => ({ p, i })).filter(({ p }) => !KNOWN.has(p))
  if (unknown.length) {
    throw new ObApiError(
      400,
      unknown.map(({ p, i }) => ({
        code: 'U002' as const,
        path: `${path}[${i}]`,
        message: `unknown permission code ${JSON.stringify(p)}: the supported codes are ${PERMISSIONS.join(', ')}`,
      })),
    )
  }
  const has = (p: Permission) => permissions.includes(p)
  if (!has('ReadAccountsBasic') && !has('ReadAccountsDetail')) {
    throw new ObApiError(400, {
      code: 'U002',
      path,
      message:
        'the permissions must include ReadAccountsBasic or ReadAccountsDetail (GET /accounts is always the first call with an authorised consent)',
    })
  }
  const basicOrDetail = has('ReadTransactionsBasic') || has('ReadTransactionsDetail')
  const creditsOrDebits = has('ReadTransactionsCredits') || has('ReadTransactionsDebits')
  if (basicOrDetail && !creditsOrDebits) {
    const which = has('ReadTransactionsDetail') ? 'ReadTransactionsDetail' : 'ReadTransactionsBasic'
    throw new ObApiError(400, {
      code: 'U002',
      path,
      message: `${which} needs at least one of ReadTransactionsCredits and ReadTransactionsDebits (which transactions to return)`,
    })
  }
  if (creditsOrDebits && !basicOrDetail) {
    const which = has('ReadTransactionsCredits') ? 'ReadTransactionsCredits' : 'ReadTransactionsDebits'
    throw new ObApiError(400, {
      code: 'U002',
      path,
      message: `${which} needs at least one of ReadTransactionsBasic and ReadTransactionsDetail (which fields to return)`,
    })
  }
}

/** The permissions of an authorised consent, with the "Detail implies Basic" rule applied. */
export class GrantedPermissions {
  readonly #set: Set<string>

  constructor(permissions: readonly string[]) {
    this.#set = new Set(permissions)
  }

  has(p: Permission): boolean {
    return this.#set.has(p)
  }

  /** Basic or Detail of a cluster, e.g. `any('Accounts')`. */
  any(
    cluster: 'Accounts' | 'Beneficiaries' | 'ScheduledPayments' | 'StandingOrders' | 'Statements' | 'Transactions',
  ): boolean {
    return this.#set.has(`Read${cluster}Basic`) || this.#set.has(`Read${cluster}Detail`)
  }

  detail(
    cluster: 'Accounts' | 'Beneficiaries' | 'ScheduledPayments' | 'StandingOrders' | 'Statements' | 'Transactions',
  ): boolean {
    return this.#set.has(`Read${cluster}Detail`)
  }

  /** Which transactions the consent lets the TPP see. */
  get transactionDirections(): { credits: boolean; debits: boolean } {
    return { credits: this.#set.has('ReadTransactionsCredits'), debits: this.#set.has('ReadTransactionsDebits') }
  }

  get pan(): boolean {
    return this.#set.has('ReadPAN')
  }
}
