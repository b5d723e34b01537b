import type { SoftwareStatementDto } from '../contract/certificates.ts'
import { AppError } from '../core/app-error.ts'
import { decodeJwtParts } from '../core/jwt-parts.ts'

const KNOWN_ROLES = new Set(['AISP', 'PISP', 'CBPII', 'ASPSP'])

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []
}

/**
 * Reads an Open Banking software statement assertion (SSA) without verifying its signature (that is
 * the bank's job, against the directory's keys): software and organisation ids, roles, redirect URIs.
 * `problems` lists what a registration would trip on. Throws JWT_MALFORMED when it is not a JWT.
 *
 * @example const { statement, problems } = parseSoftwareStatement(ssa)
 */
export function parseSoftwareStatement(ssa: string): { statement: SoftwareStatementDto; problems: string[] } {
  let claims: Record<string, unknown> | undefined
  try {
    claims = decodeJwtParts(ssa).claims
  } catch (err) {
    throw new AppError('JWT_MALFORMED', {
      what: 'Reading the software statement failed',
      cause: `it is not a JWT: ${(err as Error).message}`,
      fix: 'paste the software statement assertion (SSA) exactly as the directory issued it: three base64url parts separated by dots',
      source: err,
    })
  }
  if (!claims) {
    throw new AppError('JWT_MALFORMED', {
      what: 'Reading the software statement failed',
      cause: 'its payload is not a JSON object',
      fix: 'paste the software statement assertion exactly as the directory issued it',
    })
  }
  const roles = strings(claims.software_roles)
  const redirectUris = strings(claims.software_redirect_uris)
  const problems: string[] = []
  if (!str(claims.software_id)) problems.push('software_id is missing: the registration `iss` must equal it')
  if (!str(claims.org_id)) problems.push('org_id is missing: the TPP must be registered in the directory')
  if (roles.length === 0)
    problems.push(
      'software_roles is missing or empty: the scope of the registration comes from the roles (AISP: accounts, PISP: payments)',
    )
  const unknown = roles.filter((r) => !KNOWN_ROLES.has(r))
  if (unknown.length) problems.push(`software_roles has unknown roles ${unknown.join(', ')} (known: AISP, PISP, CBPII)`)
  if (redirectUris.length === 0)
    problems.push('software_redirect_uris is missing or empty: each software statement needs at least one redirect URI')
  if (claims.org_status !== undefined && claims.org_status !== 'Active')
    problems.push(`org_status is ${String(claims.org_status)}: only an Active organisation can register`)
  const iat = typeof claims.iat === 'number' ? new Date(claims.iat * 1000).toISOString() : undefined
  const statement: SoftwareStatementDto = {
    roles,
    redirectUris,
    claims,
    ...(str(claims.software_id) ? { softwareId: str(claims.software_id) } : {}),
    ...(str(claims.org_id) ? { orgId: str(claims.org_id) } : {}),
    ...(str(claims.org_name) ? { orgName: str(claims.org_name) } : {}),
    ...(str(claims.software_client_name) ? { clientName: str(claims.software_client_name) } : {}),
    ...(str(claims.software_jwks_endpoint) ? { jwksEndpoint: str(claims.software_jwks_endpoint) } : {}),
    ...(str(claims.iss) ? { issuer: str(claims.iss) } : {}),
    ...(iat ? { issuedAt: iat } : {}),
    ...(str(claims.software_mode) ? { mode: str(claims.software_mode) } : {}),
  }
  return { statement, problems }
}
