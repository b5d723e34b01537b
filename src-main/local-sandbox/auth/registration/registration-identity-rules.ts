import type { SoftwareStatementClaims } from '../../directory/types.ts'
import { integerClaim, invalid, stringClaim } from './registration-claim-values.ts'
import { RegistrationError, shown } from './registration-error.ts'

/**
 * The rules of the registration request that say whose it is and that it is fresh: issuer and audience,
 * the times and the jti, the software statement it carries, and the transport certificate it came over.
 */

/** Clock skew tolerated on `iat` and `exp`, in seconds. */
export const CLOCK_SKEW_SECONDS = 60
/** Longest accepted validity of a registration JWT (`exp - iat`): the reference flow's hour, plus the skew. */
export const MAX_REGISTRATION_JWT_LIFETIME_SECONDS = 3600 + CLOCK_SKEW_SECONDS

/** `iss` must be the software statement's `software_id`. */
export function checkIssuer(claims: Record<string, unknown>, ssa: Pick<SoftwareStatementClaims, 'software_id'>): void {
  const iss = stringClaim(claims, 'iss')
  if (iss !== ssa.software_id)
    throw invalid(`iss is ${shown(iss)}; expected the software statement's software_id ${shown(ssa.software_id)}`)
  if (claims.software_id !== undefined && claims.software_id !== ssa.software_id) {
    throw invalid(
      `software_id is ${shown(claims.software_id)}; when present it must equal the software statement's software_id ${shown(ssa.software_id)}`,
    )
  }
}

/**
 * `aud` must be the authorisation server address `{auth_url}`, exactly (no trailing slash or path). The
 * bank's spec wins over the Open Banking DCR reading, where `aud` is the ASPSP's organisation id.
 */
export function checkAudience(claims: Record<string, unknown>, authUrl: string): void {
  const aud = claims.aud
  if (aud === undefined)
    throw invalid(
      `the registration JWT has no aud claim; expected "${authUrl}" (the authorisation server address, spec section 2.1)`,
    )
  if (aud !== authUrl) {
    throw invalid(
      `aud is ${shown(aud)}; expected exactly "${authUrl}" (the authorisation server address {auth_url}, no trailing slash or path; this bank does not use the Open Banking reading of aud as the ASPSP's organisation id)`,
    )
  }
}

/** `iat` not in the future, `exp` not passed, and at most an hour (plus skew) between them. */
export function checkTimes(claims: Record<string, unknown>, nowSeconds: number): { iat: number; exp: number } {
  const iat = integerClaim(claims, 'iat')
  const exp = integerClaim(claims, 'exp')
  if (iat > nowSeconds + CLOCK_SKEW_SECONDS)
    throw invalid(
      `iat is ${iat}, ${iat - nowSeconds} s in the future; expected the time the JWT was made (at most ${CLOCK_SKEW_SECONDS} s of clock skew; now is ${nowSeconds})`,
    )
  if (exp <= nowSeconds)
    throw invalid(
      `exp is ${exp}: the registration JWT expired ${nowSeconds - exp} s ago (now is ${nowSeconds}); make a new one (the reference flow uses exp = iat + 3600)`,
    )
  if (exp <= iat) throw invalid(`exp (${exp}) is not after iat (${iat}); the reference flow uses exp = iat + 3600`)
  if (exp - iat > MAX_REGISTRATION_JWT_LIFETIME_SECONDS)
    throw invalid(
      `exp - iat is ${exp - iat} s; expected at most ${MAX_REGISTRATION_JWT_LIFETIME_SECONDS} s (the reference flow uses exp = iat + 3600)`,
    )
  return { iat, exp }
}

/** RFC 4122 textual form: 8-4-4-4-12 hexadecimal digits (any version, either case). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * `jti` a UUID (bank spec table 2.1: "Unique JWT ID (UUID)"); its uniqueness is checked against the replay
 * cache once the signature is verified.
 */
export function checkJti(claims: Record<string, unknown>): string {
  const jti = stringClaim(claims, 'jti')
  if (!UUID.test(jti))
    throw invalid(
      `jti is ${shown(jti.length > 60 ? `${jti.slice(0, 57)}...` : jti)}; expected a UUID such as "3f0c4c2e-8a5b-4d8e-9a7d-2b1f6c0e4a11" (spec table 2.1: "Unique JWT ID (UUID)"), a new one for every registration JWT`,
    )
  return jti
}

const badStatement = (message: string) => new RegistrationError('invalid_software_statement', message)

/** `software_statement` present (its signature and contents are checked by the directory). */
export function checkSoftwareStatementPresent(claims: Record<string, unknown>): string {
  const value = claims.software_statement
  if (value === undefined)
    throw badStatement(
      'the registration JWT has no software_statement claim; expected the software statement assertion (a JWT) from the directory',
    )
  if (typeof value !== 'string' || value.split('.').length !== 3)
    throw badStatement(
      `software_statement is ${shown(value)}; expected the software statement assertion, a signed JWT (three dot-separated parts)`,
    )
  return value
}

/** The transport certificate's organisation (subject OU) must be the software statement's `org_id`. */
export function checkTransportOrganisation(
  certificateOrgId: string | undefined,
  ssa: Pick<SoftwareStatementClaims, 'org_id'>,
): void {
  if (certificateOrgId !== ssa.org_id) {
    throw new RegistrationError(
      'unapproved_software_statement',
      `the transport certificate's organisation (subject OU) is ${shown(certificateOrgId)} but the software statement's org_id is ${shown(ssa.org_id)}; register over mutual TLS with the transport certificate the directory issued to this software`,
    )
  }
}
