import type { Context } from 'koa'
import { ObApiError } from '../../http/ob-error.ts'
import { checkedAsync } from '../../conformance/probe.ts'
import type { BankAccount } from '../ais-bank.ts'
import {
  authoriseDataRequest,
  consentAccount,
  consentAccounts,
  type AisAccess,
  type EndpointRule,
} from '../access/data-access.ts'
import type { GrantedPermissions } from '../consents/permissions.ts'
import { readQuery } from '../query/query-params.ts'
import { accountView, balanceView } from '../views/account-views.ts'
import { accountPartyViews, productView, psuPartyView } from '../views/party-product-views.ts'
import { sendRead, type AisDeps, type Route } from './route-kit.ts'

/** A rule for an endpoint opened by `needs` (a permission or a Basic/Detail cluster). */
export function rule(
  name: string,
  needs: string,
  allowed: (p: GrantedPermissions) => boolean,
  psuAbsentAllowed = false,
): EndpointRule {
  return { name, needs, allowed, psuAbsentAllowed }
}

export const RULES = {
  accounts: rule('GET /accounts', 'ReadAccountsBasic or ReadAccountsDetail', (p) => p.any('Accounts'), true),
  account: rule('GET /accounts/{AccountId}', 'ReadAccountsBasic or ReadAccountsDetail', (p) => p.any('Accounts'), true),
  balances: rule('GET /balances', 'ReadBalances', (p) => p.has('ReadBalances')),
  accountBalances: rule('GET /accounts/{AccountId}/balances', 'ReadBalances', (p) => p.has('ReadBalances'), true),
  party: rule('GET /party', 'ReadPartyPSU', (p) => p.has('ReadPartyPSU')),
  accountParty: rule('GET /accounts/{AccountId}/party', 'ReadParty', (p) => p.has('ReadParty')),
  accountParties: rule('GET /accounts/{AccountId}/parties', 'ReadParty', (p) => p.has('ReadParty')),
  products: rule('GET /products', 'ReadProducts', (p) => p.has('ReadProducts')),
  accountProduct: rule('GET /accounts/{AccountId}/product', 'ReadProducts', (p) => p.has('ReadProducts')),
}

/** Authorises the request and returns the access with the sandbox's data extended to now. */
export async function access(ctx: Context, deps: AisDeps, r: EndpointRule): Promise<AisAccess> {
  const a = await authoriseDataRequest(ctx, deps.tokens, deps.sandbox.consents, () => deps.sandbox.clock.nowMs(), r)
  deps.bank.at(a.nowMs)
  if (deps.syncLedgers) await deps.syncLedgers(a.consent.accountIds)
  return a
}

/** The consent's account `AccountId` with its bank data (400 / 403 as `consentAccount`). */
export function bankAccount(deps: AisDeps, a: AisAccess, accountId: string): BankAccount {
  const account = consentAccount(deps.sandbox.psus, a, accountId)
  const found = deps.bank.account(account.accountId)
  if (!found)
    throw new ObApiError(400, { code: 'U011', path: 'AccountId', message: `no AIS data for account ${accountId}` })
  return found
}

/** Every account of the consent with its bank data (savings accounts never appear). */
export function bankAccounts(deps: AisDeps, a: AisAccess): BankAccount[] {
  return consentAccounts(deps.sandbox.psus, a)
    .map((acc) => deps.bank.account(acc.accountId))
    .filter((x): x is BankAccount => x !== undefined)
}

/** Counts a PSU-absent access (no-op with the PSU present); 429 past the limit. */
export function countPsuAbsent(
  ctx: Context,
  deps: AisDeps,
  a: AisAccess,
  key: string,
  what: string,
  continuation = false,
): Promise<void> {
  if (a.psuPresent) return Promise.resolve()
  return checkedAsync(ctx, 'psu-absent.budget', () => deps.limiter.access(a.consent.consentId, key, what, continuation))
}

async function listAccounts(ctx: Context, _p: Record<string, string>, deps: AisDeps): Promise<void> {
  const a = await access(ctx, deps, RULES.accounts)
  readQuery(ctx, [])
  const accounts = bankAccounts(deps, a)
  await countPsuAbsent(ctx, deps, a, 'accounts', `GET /accounts for consent ${a.consent.consentId}`)
  sendRead(ctx, deps, { Account: accounts.map((x) => accountView(x, a.permissions, deps.bank.catalogue)) })
}

async function getAccount(ctx: Context, p: Record<string, string>, deps: AisDeps): Promise<void> {
  const a = await access(ctx, deps, RULES.account)
  const acc = bankAccount(deps, a, p.AccountId!)
  readQuery(ctx, [])
  await countPsuAbsent(ctx, deps, a, `${acc.account.accountId}|account`, `GET /accounts/${acc.account.accountId}`)
  sendRead(ctx, deps, { Account: [accountView(acc, a.permissions, deps.bank.catalogue)] })
}

async function listBalances(ctx: Context, _p: Record<string, string>, deps: AisDeps): Promise<void> {
  const a = await access(ctx, deps, RULES.balances)
  readQuery(ctx, [])
  sendRead(ctx, deps, { Balance: bankAccounts(deps, a).map((x) => balanceView(x, a.nowMs)) })
}

async function getBalances(ctx: Context, p: Record<string, string>, deps: AisDeps): Promise<void> {
  const a = await access(ctx, deps, RULES.accountBalances)
  const acc = bankAccount(deps, a, p.AccountId!)
  readQuery(ctx, [])
  await countPsuAbsent(
    ctx,
    deps,
    a,
    `${acc.account.accountId}|balances`,
    `GET /accounts/${acc.account.accountId}/balances`,
  )
  sendRead(ctx, deps, { Balance: [balanceView(acc, a.nowMs)] })
}

async function getPsuParty(ctx: Context, _p: Record<string, string>, deps: AisDeps): Promise<void> {
  const a = await access(ctx, deps, RULES.party)
  readQuery(ctx, [])
  const party = a.consent.psuId ? psuPartyView(deps.bank.catalogue, a.consent.psuId) : undefined
  if (!party)
    throw new ObApiError(400, { code: 'U011', message: `no party data for the PSU of consent ${a.consent.consentId}` })
  sendRead(ctx, deps, { Party: party })
}

async function getAccountParty(ctx: Context, p: Record<string, string>, deps: AisDeps): Promise<void> {
  const a = await access(ctx, deps, RULES.accountParty)
  const acc = bankAccount(deps, a, p.AccountId!)
  readQuery(ctx, [])
  sendRead(ctx, deps, { Party: accountPartyViews(acc, deps.bank.catalogue, deps.sandbox.addresses.baseUrl)[0] })
}

async function getAccountParties(ctx: Context, p: Record<string, string>, deps: AisDeps): Promise<void> {
  const a = await access(ctx, deps, RULES.accountParties)
  const acc = bankAccount(deps, a, p.AccountId!)
  readQuery(ctx, [])
  sendRead(ctx, deps, { Party: accountPartyViews(acc, deps.bank.catalogue, deps.sandbox.addresses.baseUrl) })
}

async function listProducts(ctx: Context, _p: Record<string, string>, deps: AisDeps): Promise<void> {
  const a = await access(ctx, deps, RULES.products)
  readQuery(ctx, [])
  sendRead(ctx, deps, { Product: bankAccounts(deps, a).map(productView) })
}

async function getProduct(ctx: Context, p: Record<string, string>, deps: AisDeps): Promise<void> {
  const a = await access(ctx, deps, RULES.accountProduct)
  const acc = bankAccount(deps, a, p.AccountId!)
  readQuery(ctx, [])
  sendRead(ctx, deps, { Product: [productView(acc)] })
}

export const accountRoutes: Route[] = [
  { method: 'GET', path: '/accounts', handler: listAccounts },
  { method: 'GET', path: '/accounts/{AccountId}', handler: getAccount },
  { method: 'GET', path: '/balances', handler: listBalances },
  { method: 'GET', path: '/accounts/{AccountId}/balances', handler: getBalances },
  { method: 'GET', path: '/party', handler: getPsuParty },
  { method: 'GET', path: '/accounts/{AccountId}/party', handler: getAccountParty },
  { method: 'GET', path: '/accounts/{AccountId}/parties', handler: getAccountParties },
  { method: 'GET', path: '/products', handler: listProducts },
  { method: 'GET', path: '/accounts/{AccountId}/product', handler: getProduct },
]
