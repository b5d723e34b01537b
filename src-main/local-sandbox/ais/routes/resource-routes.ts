import type { Context } from 'koa'
import type { BankAccount } from '../ais-bank.ts'
import type { AisAccess, EndpointRule } from '../access/data-access.ts'
import { readQuery } from '../query/query-params.ts'
import { offerViews } from '../views/card-views.ts'
import {
  beneficiaryViews,
  directDebitViews,
  scheduledPaymentViews,
  standingOrderViews,
} from '../views/payment-views.ts'
import { access, bankAccount, bankAccounts, rule } from './account-routes.ts'
import { sendRead, type AisDeps, type Route } from './route-kit.ts'

type Build = (acc: BankAccount, a: AisAccess, deps: AisDeps) => object[]

/**
 * A resource listed per account (`/accounts/{AccountId}/x`) and in bulk (`/x`, every account of the
 * consent). Product rules (the bank's spec, section 7) live in `build`: a resource that does not apply to
 * the product gives an empty list, so the answer is 200 with no data.
 */
function resource(
  path: string,
  dataKey: string,
  needs: string,
  allowed: EndpointRule['allowed'],
  build: Build,
): Route[] {
  const bulkRule = rule(`GET /${path}`, needs, allowed)
  const oneRule = rule(`GET /accounts/{AccountId}/${path}`, needs, allowed)
  const bulk = async (ctx: Context, _p: Record<string, string>, deps: AisDeps) => {
    const a = await access(ctx, deps, bulkRule)
    readQuery(ctx, [])
    sendRead(ctx, deps, { [dataKey]: bankAccounts(deps, a).flatMap((acc) => build(acc, a, deps)) })
  }
  const one = async (ctx: Context, p: Record<string, string>, deps: AisDeps) => {
    const a = await access(ctx, deps, oneRule)
    const acc = bankAccount(deps, a, p.AccountId!)
    readQuery(ctx, [])
    sendRead(ctx, deps, { [dataKey]: build(acc, a, deps) })
  }
  return [
    { method: 'GET', path: `/${path}`, handler: bulk },
    { method: 'GET', path: `/accounts/{AccountId}/${path}`, handler: one },
  ]
}

const currentOnly =
  (build: Build): Build =>
  (acc, a, deps) =>
    acc.account.accountTypeCode === 'CACC' ? build(acc, a, deps) : []
const cardOnly =
  (build: Build): Build =>
  (acc, a, deps) =>
    acc.account.accountTypeCode === 'CARD' ? build(acc, a, deps) : []

export const resourceRoutes: Route[] = [
  ...resource(
    'beneficiaries',
    'Beneficiary',
    'ReadBeneficiariesBasic or ReadBeneficiariesDetail',
    (p) => p.any('Beneficiaries'),
    currentOnly((acc, a) => beneficiaryViews(acc, a.permissions)),
  ),
  ...resource(
    'direct-debits',
    'DirectDebit',
    'ReadDirectDebits',
    (p) => p.has('ReadDirectDebits'),
    currentOnly((acc, a, deps) => directDebitViews(deps.bank, acc, a.nowMs)),
  ),
  ...resource(
    'standing-orders',
    'StandingOrder',
    'ReadStandingOrdersBasic or ReadStandingOrdersDetail',
    (p) => p.any('StandingOrders'),
    currentOnly((acc, a, deps) => standingOrderViews(deps.bank, acc, a.permissions, a.nowMs)),
  ),
  ...resource(
    'scheduled-payments',
    'ScheduledPayment',
    'ReadScheduledPaymentsBasic or ReadScheduledPaymentsDetail',
    (p) => p.any('ScheduledPayments'),
    currentOnly((acc, a) => scheduledPaymentViews(acc, a.permissions, a.nowMs)),
  ),
  ...resource(
    'offers',
    'Offer',
    'ReadOffers',
    (p) => p.has('ReadOffers'),
    cardOnly((acc, a, deps) => offerViews(acc, deps.bank.anchorMs, a.nowMs)),
  ),
]
