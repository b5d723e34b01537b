import type { InteractionResults } from 'oidc-provider'
import type Provider from 'oidc-provider'
import type { ConsentRecord, ConsentStore, PisConsentRecord } from '../../consents/consent-store.ts'
import { isShareableThroughAis, type Psu, type SeedAccount } from '../../psus.ts'
import { ACR_SCA, INTENT_CLAIM } from '../provider/provider-config.ts'

/**
 * The PSU's decision on a consent, turned into what oidc-provider needs to finish the interaction:
 * on approval the consent store records it and a Grant is saved for the consent (the ID token's `sub`),
 * on refusal the consent becomes RJCT and the client gets `access_denied`.
 */

/** The accounts of `psu` that may be shared through AIS (current account and credit card). */
export function shareableAccounts(psu: Psu): SeedAccount[] {
  return psu.accounts.filter(isShareableThroughAis)
}

/** The account of `psu` that the payment's Initiation.DebtorAccount names, if any. */
export function initiationDebtorAccount(consent: PisConsentRecord, psu: Psu): SeedAccount | undefined {
  const debtor = (consent.data.Initiation as { DebtorAccount?: { Identification?: string } } | undefined)?.DebtorAccount
  if (!debtor?.Identification) return undefined
  const id = debtor.Identification.replace(/\s+/g, '')
  return psu.accounts.find((a) => a.identification === id)
}

/** Accounts `psu` may pay from: current accounts first, then savings (never the credit card). */
export function payableAccounts(psu: Psu): SeedAccount[] {
  const order = { CACC: 0, SVGS: 1, CARD: 2 } as const
  return psu.accounts
    .filter((a) => a.accountTypeCode !== 'CARD')
    .sort((a, b) => order[a.accountTypeCode] - order[b.accountTypeCode])
}

/** True when the Initiation names a debtor account (whether or not it is this PSU's). */
export function initiationNamesDebtor(consent: PisConsentRecord): boolean {
  return Boolean((consent.data.Initiation as { DebtorAccount?: unknown } | undefined)?.DebtorAccount)
}

/** The accounts a headless approval uses: every shareable account (AIS), or the debtor account (PIS). */
export function headlessSelection(consent: ConsentRecord, psu: Psu): string[] {
  if (consent.kind === 'ais') return shareableAccounts(psu).map((a) => a.accountId)
  const debtor = initiationDebtorAccount(consent, psu) ?? payableAccounts(psu)[0]
  return debtor ? [debtor.accountId] : []
}

export interface ApprovalInput {
  provider: Provider
  consents: ConsentStore
  consent: ConsentRecord
  clientId: string
  psuId: string
  accountIds: string[]
  /** The interaction's parameters (scope, claims). */
  params: Record<string, unknown>
}

/** Records the approval and returns the interaction result (login as the consent, grant of scope and claims). */
export async function approve(input: ApprovalInput): Promise<InteractionResults> {
  const moved = await input.consents.authorise(input.consent.consentId, input.psuId, input.accountIds)
  // Revoked, expired or decided while the PSU was on the page: the decision that landed first stands.
  if (!moved.changed) return noLongerAwaiting(input.consent.consentId, moved.consent?.status)
  const grant = new input.provider.Grant({ accountId: input.consent.consentId, clientId: input.clientId })
  grant.addOIDCScope(String(input.params.scope ?? 'openid'))
  grant.addOIDCClaims([INTENT_CLAIM, ...requestedClaims(input.params.claims)])
  const grantId = await grant.save()
  return {
    login: { accountId: input.consent.consentId, acr: ACR_SCA, amr: ['pwd'], remember: false },
    consent: { grantId },
  }
}

/** Records the refusal and returns the interaction result that sends `access_denied` to the client. */
export async function reject(
  consents: ConsentStore,
  consent: ConsentRecord,
  psuId: string | undefined,
): Promise<InteractionResults> {
  const moved = await consents.reject(consent.consentId, psuId)
  if (!moved.changed) return noLongerAwaiting(consent.consentId, moved.consent?.status)
  return { error: 'access_denied', error_description: `the PSU refused consent ${consent.consentId}` }
}

function noLongerAwaiting(consentId: string, status: string | undefined): InteractionResults {
  return {
    error: 'access_denied',
    error_description: `consent ${consentId} is no longer awaiting authorisation (it is ${status ?? 'gone'}); create a new consent`,
  }
}

function requestedClaims(claims: unknown): string[] {
  if (typeof claims !== 'string') return []
  try {
    const parsed = JSON.parse(claims) as Record<string, Record<string, unknown> | undefined>
    return [...new Set([...Object.keys(parsed.id_token ?? {}), ...Object.keys(parsed.userinfo ?? {})])]
  } catch {
    return []
  }
}
