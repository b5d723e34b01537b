import { randomUUID } from 'node:crypto'
import { SignJWT, compactVerify, decodeProtectedHeader, errors as joseErrors } from 'jose'
import type { DirectoryKey } from './directory-key.ts'
import { SoftwareStatementError, type SoftwareStatementClaims, type SoftwareStatementRecord } from './types.ts'

/** Where the directory publishes a software statement's keys and revoked keys, and its organisation's. */
export function jwksEndpoints(directoryUrl: string, orgId: string, softwareId: string) {
  return {
    software: `${directoryUrl}/organisation/${orgId}/software/${softwareId}/jwks`,
    softwareRevoked: `${directoryUrl}/organisation/${orgId}/software/${softwareId}/revoked/jwks`,
    org: `${directoryUrl}/organisation/${orgId}/jwks`,
    orgRevoked: `${directoryUrl}/organisation/${orgId}/revoked/jwks`,
  }
}

/**
 * The claims of the software statement assertion for a record, in the Open Banking directory's shape.
 * The competent-authority claim says what a real TPP's FCA authorisation would: authority FCAGBR,
 * the software's roles, member state GB.
 */
export function softwareStatementClaims(
  record: SoftwareStatementRecord,
  issuer: string,
  directoryUrl: string,
  iat: number,
): SoftwareStatementClaims {
  const endpoints = jwksEndpoints(directoryUrl, record.orgId, record.softwareId)
  return {
    iss: issuer,
    iat,
    jti: randomUUID(),
    software_id: record.softwareId,
    software_client_id: record.softwareId,
    software_client_name: record.clientName,
    software_client_description: `${record.clientName}, a TPP of the OB Console local sandbox`,
    software_version: '1.0',
    software_environment: 'sandbox',
    software_mode: 'Test',
    software_roles: record.roles,
    software_redirect_uris: record.redirectUris,
    software_jwks_endpoint: record.jwksEndpoint,
    software_jwks_revoked_endpoint: endpoints.softwareRevoked,
    org_id: record.orgId,
    org_name: record.orgName,
    org_status: record.orgStatus,
    org_jwks_endpoint: endpoints.org,
    org_jwks_revoked_endpoint: endpoints.orgRevoked,
    organisation_competent_authority_claims: {
      authority_id: 'FCAGBR',
      registration_id: String(parseInt(record.orgId.slice(-6), 36) % 1_000_000).padStart(6, '0'),
      status: 'Active',
      authorisations: [{ member_state: 'GB', roles: record.roles }],
    },
  }
}

/** Signs the claims as the directory: a JWT with `typ: JWT`, `alg: PS256` and the directory key's `kid`. */
export async function signSoftwareStatement(claims: SoftwareStatementClaims, key: DirectoryKey): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ typ: 'JWT', alg: 'PS256', kid: key.kid }).sign(key.privateKey)
}

const invalid = (message: string) => new SoftwareStatementError('invalid_software_statement', message)

type ClaimCheck = [claim: string, expected: string, ok: (v: unknown) => boolean]
const isString = (v: unknown) => typeof v === 'string' && v.length > 0
const isStringArray = (v: unknown) => Array.isArray(v) && v.length > 0 && v.every(isString)
const REQUIRED_CLAIMS: ClaimCheck[] = [
  ['iat', 'a number of seconds since the epoch', (v) => typeof v === 'number' && Number.isInteger(v) && v > 0],
  ['jti', 'a non-empty string', isString],
  [
    'software_id',
    'a string of 1 to 22 letters and digits',
    (v) => typeof v === 'string' && /^[0-9A-Za-z]{1,22}$/.test(v),
  ],
  ['software_client_id', 'a non-empty string', isString],
  ['software_client_name', 'a non-empty string', isString],
  ['software_environment', 'a non-empty string', isString],
  ['software_mode', '"Test" or "Live"', (v) => v === 'Test' || v === 'Live'],
  ['software_roles', 'a non-empty array of roles (AISP, PISP)', isStringArray],
  ['software_redirect_uris', 'a non-empty array of URIs', isStringArray],
  ['software_jwks_endpoint', 'an https URL', (v) => typeof v === 'string' && v.startsWith('https://')],
  ['org_id', 'a string of 1 to 35 letters and digits', (v) => typeof v === 'string' && /^[0-9A-Za-z]{1,35}$/.test(v)],
  ['org_name', 'a non-empty string', isString],
  ['org_status', '"Active", "Revoked" or "Withdrawn"', (v) => v === 'Active' || v === 'Revoked' || v === 'Withdrawn'],
]

type VerifyOptions = {
  key: DirectoryKey
  issuer: string
  directoryUrl: string
  lookup: (softwareId: string) => Promise<SoftwareStatementRecord | undefined>
}

/** The SSA's signed payload: a compact JWS with a PS256 header naming the directory key, whose signature verifies. */
async function verifiedPayload(ssa: unknown, opts: VerifyOptions): Promise<Uint8Array> {
  if (typeof ssa !== 'string' || ssa.trim() === '')
    throw invalid(
      `software_statement must be the software statement assertion (a JWT string) from ${opts.directoryUrl}, got ${ssa === undefined ? 'nothing' : JSON.stringify(ssa).slice(0, 80)}`,
    )
  const token = ssa.trim()
  const parts = token.split('.')
  if (parts.length !== 3 || parts.some((p) => !/^[A-Za-z0-9_-]*$/.test(p)))
    throw invalid(
      `software_statement is not a compact JWS (three base64url parts joined by dots); it has ${parts.length} part${parts.length === 1 ? '' : 's'}`,
    )
  let header: ReturnType<typeof decodeProtectedHeader>
  try {
    header = decodeProtectedHeader(token)
  } catch {
    throw invalid('software_statement has a JOSE header that is not base64url-encoded JSON')
  }
  if (header.alg !== 'PS256')
    throw invalid(
      `software_statement header alg is ${JSON.stringify(header.alg ?? null)}; expected PS256 (the directory signs software statements with PS256, never "none")`,
    )
  if (header.kid !== opts.key.kid)
    throw invalid(
      `software_statement header kid is ${JSON.stringify(header.kid ?? null)}; expected ${opts.key.kid}, the key of "${opts.issuer}" (${opts.directoryUrl}/jwks). Was it issued by another directory or another sandbox data directory?`,
    )
  try {
    return (await compactVerify(token, opts.key.publicKey, { algorithms: ['PS256'] })).payload
  } catch (err) {
    if (err instanceof joseErrors.JWSSignatureVerificationFailed)
      throw invalid(
        `software_statement signature does not verify with the directory key ${opts.key.kid}: the SSA was altered or not signed by "${opts.issuer}"`,
      )
    throw invalid(`software_statement cannot be verified: ${(err as Error).message}`)
  }
}

/** The payload's claims: a JSON object from this directory (`iss`), each required claim present and typed. */
function checkedClaims(payload: Uint8Array, issuer: string): Record<string, unknown> {
  let claims: Record<string, unknown>
  try {
    claims = JSON.parse(new TextDecoder().decode(payload)) as Record<string, unknown>
  } catch {
    throw invalid('software_statement payload is not a JSON object')
  }
  if (claims === null || typeof claims !== 'object' || Array.isArray(claims))
    throw invalid('software_statement payload is not a JSON object')
  if (claims.iss !== issuer)
    throw invalid(`software_statement iss is ${JSON.stringify(claims.iss ?? null)}; expected "${issuer}"`)
  for (const [claim, expected, ok] of REQUIRED_CLAIMS) {
    if (claims[claim] === undefined) throw invalid(`software_statement has no ${claim} claim; expected ${expected}`)
    if (!ok(claims[claim]))
      throw invalid(
        `software_statement claim ${claim} is ${JSON.stringify(claims[claim]).slice(0, 80)}; expected ${expected}`,
      )
  }
  return claims
}

/** The software is known to the directory (read fresh), under the same organisation, and that organisation active. */
async function checkAgainstRecord(claims: Record<string, unknown>, opts: VerifyOptions): Promise<void> {
  const softwareId = claims.software_id as string
  let record: SoftwareStatementRecord | undefined
  try {
    record = await opts.lookup(softwareId)
  } catch (err) {
    throw invalid(`the directory cannot read its record of software ${softwareId}: ${(err as Error).message}`)
  }
  if (!record)
    throw invalid(
      `software_statement software_id ${softwareId} is not known to the directory "${opts.issuer}"; onboard the TPP again (POST ${opts.directoryUrl}/tpps)`,
    )
  if (claims.org_id !== record.orgId)
    throw invalid(
      `software_statement org_id is ${JSON.stringify(claims.org_id)}; the directory holds software ${softwareId} under organisation ${record.orgId}`,
    )
  if (record.orgStatus !== 'Active')
    throw new SoftwareStatementError(
      'unapproved_software_statement',
      `organisation ${record.orgId} (${record.orgName}) has org_status ${record.orgStatus} in the directory; only an Active organisation's software may register`,
    )
  if (claims.org_status !== 'Active')
    throw new SoftwareStatementError(
      'unapproved_software_statement',
      `software_statement org_status is ${JSON.stringify(claims.org_status)}; expected "Active"`,
    )
}

/**
 * Verifies a software statement assertion: compact JWS, `alg: PS256`, signed by the directory key
 * (`kid`), `iss` the directory, the required claims present and typed, the software known to the
 * directory (`lookup`, read fresh from the store) under the same organisation, and that organisation
 * active. A signature or shape problem is `invalid_software_statement`; a revoked or withdrawn
 * organisation is `unapproved_software_statement`. Each message names the claim and what was expected.
 */
export async function verifySoftwareStatement(ssa: unknown, opts: VerifyOptions): Promise<SoftwareStatementClaims> {
  const claims = checkedClaims(await verifiedPayload(ssa, opts), opts.issuer)
  await checkAgainstRecord(claims, opts)
  return claims as SoftwareStatementClaims
}
