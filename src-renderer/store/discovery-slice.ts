/**
 * Discovery as the console reads it (per environment, checked against the environment and a client's
 * registration), and the registration builder's pre-flight: the claims about to be sent against discovery.
 */
import type { CheckResult } from '../../src-main/contract/checks.ts'
import type { DiscoveryViewDto } from '../../src-main/contract/consents.ts'
import { runOp } from './ops.ts'
import type { SliceDeps } from './types.ts'

export interface PreflightResult {
  /** What was checked: the relevant claims' JSON (`preflightClaims`), so a changed form shows the result as stale. */
  claimsJson: string
  environmentId: string
  /** The checks against the claims being registered (`registered …`), and the environment's own. */
  checks: CheckResult[]
  discoveryUrl: string
  exchangeId: string
}

export interface DiscoverySlice {
  discovery: Record<string, DiscoveryViewDto>
  preflight?: PreflightResult
  loadDiscovery(environmentId: string, clientId?: string): Promise<DiscoveryViewDto | undefined>
  /** Checks the claims against the environment's discovery; the failing checks block a plain send. */
  runPreflight(environmentId: string, claims: Record<string, unknown>): Promise<PreflightResult | undefined>
  /**
   * The builder's send: the pre-flight first (unless it ran on these claims), then the registration only
   * when every check passes. Returns whether the registration was sent and accepted.
   */
  sendRegistration(): Promise<boolean>
}

/** The claims discovery can say something of: what the pre-flight sends and compares (not jti, iat, exp). */
export const PREFLIGHT_CLAIMS = [
  'token_endpoint_auth_method',
  'token_endpoint_auth_signing_alg',
  'request_object_signing_alg',
  'id_token_signed_response_alg',
  'grant_types',
  'response_types',
  'scope',
] as const

export function preflightClaims(claims: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(PREFLIGHT_CLAIMS.filter((k) => claims[k] !== undefined).map((k) => [k, claims[k]]))
}

/** The checks of the claims being registered (the environment's own are in the discovery view). */
export const registrationChecks = (checks: CheckResult[]) => checks.filter((c) => c.name.startsWith('registered '))

export function discoverySlice({ set, get, api }: SliceDeps): DiscoverySlice {
  return {
    discovery: {},
    async loadDiscovery(environmentId, clientId) {
      const input = clientId ? { environmentId, clientId } : { environmentId }
      const view = await runOp(set, `discovery.view:${environmentId}`, () => api.call('discovery.view', input))
      if (view) set((s) => ({ discovery: { ...s.discovery, [environmentId]: view } }))
      return view
    },
    async runPreflight(environmentId, all) {
      const claims = preflightClaims(all)
      const view = await runOp(set, 'registration.preflight', () =>
        api.call('discovery.view', { environmentId, claims }),
      )
      if (!view) return undefined
      const preflight: PreflightResult = {
        claimsJson: JSON.stringify(claims),
        environmentId,
        checks: registrationChecks(view.checks),
        discoveryUrl: view.url,
        exchangeId: view.exchangeId,
      }
      set({ preflight })
      return preflight
    },
    async sendRegistration() {
      const { environmentId, preview } = get().registration
      if (!environmentId || !preview?.valid) return false
      let preflight = get().preflight
      const claimsJson = JSON.stringify(preflightClaims(preview.claims))
      const stale = !preflight || preflight.environmentId !== environmentId || preflight.claimsJson !== claimsJson
      if (stale) preflight = await get().runPreflight(environmentId, preview.claims)
      if (!preflight || preflight.checks.some((c) => !c.pass)) return false
      return !!(await get().register())
    },
  }
}
