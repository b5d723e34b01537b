import type { Context } from 'koa'
import type { AccessTokenVerifier, TokenInfo } from '../../auth/types.ts'
import type { AisConsentRecord, ConsentStore } from '../../consents/consent-store.ts'
import { ObApiError } from '../../http/ob-error.ts'
import { checked } from '../../conformance/probe.ts'
import { isShareableThroughAis, type PsuDirectory, type SeedAccount } from '../../psus.ts'
import { requireAccessToken } from '../../resource/require-token.ts'
import { GrantedPermissions } from '../consents/permissions.ts'
import { psuPresence } from '../query/http-rules.ts'
import { withinScaWindow } from './history-window.ts'

/** What a data endpoint needs: which permissions open it, and whether it may be called without the PSU. */
export interface EndpointRule {
  /** For messages: `GET /accounts/{AccountId}/balances`. */
  name: string
  allowed(p: GrantedPermissions): boolean
  /** The permissions that open it, for the 403 message. */
  needs: string
  /** One of the four endpoints the bank's spec exempts from SCA when the PSU is absent (section 4.2). */
  psuAbsentAllowed: boolean
}

/** The facts of an authorised data request. */
export interface AisAccess {
  token: TokenInfo
  consent: AisConsentRecord
  permissions: GrantedPermissions
  psuPresent: boolean
  /** Within the SCA window after the PSU's authorisation: unlimited transaction history. */
  withSca: boolean
  nowMs: number
}

const STATUS_REFUSAL: Record<string, string> = {
  AWAU: "is awaiting the PSU's authorisation (status AWAU); send the PSU to authorise it first",
  RJCT: 'was rejected by the PSU (status RJCT); create a new consent',
  CANC: 'was revoked (status CANC): deleted by the TPP or revoked by the PSU; have the PSU authorise it again, or create a new consent',
  EXPD: 'has expired (status EXPD): it passed its ExpirationDateTime; create a new consent',
}

/**
 * Authorises a data request: an authorisation-code token with scope accounts, bound to this connection's
 * certificate, issued for an AIS consent of the same client that is `AUTH`; the consent grants the
 * endpoint's permission; the PSU is present unless the endpoint is one of the four PSU-absent ones.
 * 401 for a bad token, 403 for everything the consent does not allow, 400 for a malformed PSU header.
 */
export async function authoriseDataRequest(
  ctx: Context,
  tokens: AccessTokenVerifier,
  consents: ConsentStore,
  nowMs: () => number,
  rule: EndpointRule,
): Promise<AisAccess> {
  const token = await requireAccessToken(ctx, tokens, { grant: 'authorization_code', scope: 'accounts' })
  const found = token.consentId ? await consents.get(token.consentId) : undefined
  if (!found) {
    throw new ObApiError(403, {
      code: 'U008',
      path: 'Authorization',
      message: `the access token names no known consent${token.consentId ? ` (${token.consentId})` : ''}; obtain a token by authorising an account access consent`,
    })
  }
  if (found.kind !== 'ais') {
    throw new ObApiError(403, {
      code: 'U008',
      path: 'Authorization',
      message: `the access token was issued for ${found.consentId}, a payment consent; AIS endpoints need a token for an account access consent`,
    })
  }
  if (found.clientId !== token.clientId) {
    throw new ObApiError(403, {
      code: 'U008',
      path: 'Authorization',
      message: `consent ${found.consentId} belongs to another client; a token can only use its own client's consents`,
    })
  }
  checked(ctx, 'consent.status', () => {
    if (found.status !== 'AUTH') {
      throw new ObApiError(403, {
        code: 'U009',
        path: 'Authorization',
        message: `consent ${found.consentId} ${STATUS_REFUSAL[found.status] ?? `has status ${found.status}`}`,
      })
    }
  })
  const psuPresent = psuPresence(ctx)
  const permissions = new GrantedPermissions(found.permissions)
  if (!rule.allowed(permissions)) {
    throw new ObApiError(403, {
      code: 'U008',
      message: `${rule.name} needs the permission ${rule.needs}, which consent ${found.consentId} does not grant (it grants ${found.permissions.join(', ')}); create a consent with that permission`,
    })
  }
  // Recorded only for calls without the PSU: with the PSU present every endpoint may be called.
  if (!psuPresent) {
    checked(ctx, 'psu-absent.endpoints', () => {
      if (rule.psuAbsentAllowed) return
      throw new ObApiError(403, {
        code: 'U007',
        path: 'x-fapi-customer-ip-address',
        message: `${rule.name} needs the PSU to be present: send x-fapi-customer-ip-address with the PSU's IP address. Without the PSU only GET /accounts, /accounts/{AccountId}, /accounts/{AccountId}/balances and /accounts/{AccountId}/transactions may be called, at most 4 times in 24 hours`,
      })
    })
  }
  const now = nowMs()
  return { token, consent: found, permissions, psuPresent, withSca: withinScaWindow(found, now), nowMs: now }
}

/** The accounts of the consent that AIS may show (savings accounts never: only CACC and CARD). */
export function consentAccounts(psus: PsuDirectory, access: AisAccess): SeedAccount[] {
  const out: SeedAccount[] = []
  for (const id of access.consent.accountIds) {
    const found = psus.account(id)
    if (found && isShareableThroughAis(found.account) && found.psu.psuId === access.consent.psuId)
      out.push(found.account)
  }
  return out
}

/**
 * The account `accountId` of the consent: 400 U011 when no such account exists, 403 when it exists but
 * is not bound to this consent or cannot be shared through AIS.
 */
export function consentAccount(psus: PsuDirectory, access: AisAccess, accountId: string): SeedAccount {
  const found = psus.account(accountId)
  if (!found) {
    throw new ObApiError(400, {
      code: 'U011',
      path: 'AccountId',
      message: `no account ${accountId.slice(0, 60)}; use an AccountId from GET /accounts`,
    })
  }
  if (!isShareableThroughAis(found.account)) {
    throw new ObApiError(403, {
      code: 'U008',
      path: 'AccountId',
      message: `account ${accountId} is a savings account; only current accounts and credit cards can be shared through AIS`,
    })
  }
  if (!access.consent.accountIds.includes(accountId) || found.psu.psuId !== access.consent.psuId) {
    throw new ObApiError(403, {
      code: 'U008',
      path: 'AccountId',
      message: `account ${accountId} is not one of the accounts the PSU selected for consent ${access.consent.consentId}; use an AccountId from GET /accounts`,
    })
  }
  return found.account
}
