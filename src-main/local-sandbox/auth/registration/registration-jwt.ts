import {
  compactVerify,
  decodeJwt,
  decodeProtectedHeader,
  type JWK,
  type JWTPayload,
  type ProtectedHeaderParameters,
} from 'jose'
import {
  SoftwareStatementError,
  type Directory,
  type SoftwareStatementClaims,
  type SoftwareStatementRecord,
} from '../../directory/types.ts'
import { RegistrationError, shown } from './registration-error.ts'
import { checkSoftwareStatementPresent } from './registration-identity-rules.ts'
import { ps256VerificationKey } from '../../crypto/verification-keys.ts'

/** Content types a registration body may have (DCR-OA says JSON string, FCS-DCR sends jose, banks document jwt). */
export const REGISTRATION_CONTENT_TYPES = ['application/jwt', 'application/jose', 'application/json'] as const

const invalid = (message: string) => new RegistrationError('invalid_client_metadata', message)

/**
 * The registration JWT in a request body. `application/jwt` and `application/jose` carry the compact JWT
 * as raw bytes; `application/json` carries it as a JSON string (DCR 3.2's OpenAPI), or raw.
 */
export function registrationJwtFromBody(body: Buffer, contentType: string | undefined): string {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase()
  if (!(REGISTRATION_CONTENT_TYPES as readonly string[]).includes(type)) {
    throw invalid(
      `Content-Type is ${shown(contentType ?? '')}; expected application/jwt with the signed registration JWT as the body (application/jose and application/json with a JSON string body are accepted too)`,
    )
  }
  let text = body.toString('utf8').trim()
  if (type === 'application/json' && text.startsWith('"')) {
    try {
      text = String(JSON.parse(text)).trim()
    } catch {
      throw invalid(
        'the application/json body is not a JSON string; expected the registration JWT as a JSON string ("eyJ...") or send it as application/jwt',
      )
    }
  }
  if (text === '') throw invalid('the request body is empty; expected the signed registration JWT (spec section 4.1)')
  if (!/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(text)) {
    throw invalid(
      `the body is not a compact JWT (three base64url parts separated by dots); it starts with ${shown(text.slice(0, 20))}`,
    )
  }
  return text
}

export interface DecodedRegistration {
  header: ProtectedHeaderParameters
  claims: Record<string, unknown>
}

/** Decodes the registration JWT without verifying it; refuses anything but a PS256 JWS with a kid. */
export function decodeRegistrationJwt(jwt: string): DecodedRegistration {
  let header: ProtectedHeaderParameters
  let claims: JWTPayload
  try {
    header = decodeProtectedHeader(jwt)
    claims = decodeJwt(jwt)
  } catch (err) {
    throw invalid(
      `the registration JWT cannot be decoded (${(err as Error).message}); expected a compact JWS whose header and payload are base64url JSON objects`,
    )
  }
  if (header.alg !== 'PS256') {
    throw invalid(
      `the registration JWT header alg is ${shown(header.alg)}; expected "PS256" (an unsigned or otherwise signed registration request is refused)`,
    )
  }
  if (typeof header.kid !== 'string' || header.kid === '') {
    throw invalid(
      `the registration JWT header has kid ${shown(header.kid)}; expected the key id of the software's signing key (as in its JWKS)`,
    )
  }
  if (header.typ !== undefined && header.typ !== 'JWT')
    throw invalid(`the registration JWT header typ is ${shown(header.typ)}; expected "JWT"`)
  return { header, claims: claims as Record<string, unknown> }
}

/** Verifies the software statement with the directory, mapping its refusal to the DCR error. */
export async function verifySoftwareStatement(
  directory: Directory,
  claims: Record<string, unknown>,
): Promise<SoftwareStatementClaims> {
  const ssa = checkSoftwareStatementPresent(claims)
  try {
    return await directory.verifySoftwareStatement(ssa)
  } catch (err) {
    if (err instanceof SoftwareStatementError) throw new RegistrationError(err.error, err.message)
    throw new RegistrationError(
      'invalid_software_statement',
      `the software statement could not be verified: ${(err as Error).message}`,
    )
  }
}

/**
 * Verifies the registration JWT's PS256 signature with the key of the software's JWKS (in the directory)
 * whose kid the header names.
 */
export async function verifyRegistrationSignature(
  jwt: string,
  header: ProtectedHeaderParameters,
  software: SoftwareStatementRecord,
): Promise<void> {
  const jwk = software.jwks.keys.find((k) => k.kid === header.kid) as JWK | undefined
  if (!jwk) {
    const kids = software.jwks.keys.map((k) => k.kid)
    throw invalid(
      `the registration JWT header kid ${shown(header.kid)} is not in the software's JWKS (${software.jwksEndpoint}, kids ${shown(kids)}); sign with the software's signing key and put its kid in the header`,
    )
  }
  let key
  try {
    key = await ps256VerificationKey(jwk)
  } catch (err) {
    throw invalid(`the software's key ${shown(header.kid)} cannot be used for PS256 (${(err as Error).message})`)
  }
  try {
    await compactVerify(jwt, key, { algorithms: ['PS256'] })
  } catch {
    throw invalid(
      `the registration JWT's signature does not verify with the software's key ${shown(header.kid)} (${software.jwksEndpoint}); sign the exact bytes you send with that key's private half, PS256`,
    )
  }
}
