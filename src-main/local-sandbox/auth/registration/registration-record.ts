import { randomBytes } from 'node:crypto'
import type { ResponseType } from 'oidc-provider'
import type { SoftwareStatementClaims, SoftwareStatementRecord } from '../../directory/types.ts'
import { PROFILE_CLAIM, profileName } from '../client-profile.ts'
import type { SandboxClientMetadata } from '../client-store.ts'
import type { ValidRegistration } from './registration-rules.ts'

export interface ClientIdentity {
  clientId: string
  clientIdIssuedAt: number
  /** Kept across an update when the client stays on client_secret_basic. */
  clientSecret?: string
}

/** A new client secret: 32 base64url characters (DCR 3.2 allows up to 36). */
export function newClientSecret(): string {
  return randomBytes(24).toString('base64url')
}

/**
 * The client metadata stored for a valid registration: what oidc-provider needs (its client schema) plus
 * `ob_registration`, the Open Banking values as registered.
 */
export function buildClientMetadata(
  identity: ClientIdentity,
  registration: ValidRegistration,
  ssa: SoftwareStatementClaims,
  software: SoftwareStatementRecord,
  certificateThumbprint: string | undefined,
): SandboxClientMetadata {
  const basic = registration.tokenEndpointAuthMethod === 'client_secret_basic'
  return {
    client_id: identity.clientId,
    client_id_issued_at: identity.clientIdIssuedAt,
    ...(basic ? { client_secret: identity.clientSecret ?? newClientSecret(), client_secret_expires_at: 0 } : {}),
    client_name: ssa.software_client_name,
    redirect_uris: registration.redirectUris,
    response_types: registration.responseTypes as ResponseType[],
    // Refresh tokens come with every authorisation-code grant, registered or not (see the docs).
    grant_types: [...new Set([...registration.grantTypes, 'refresh_token'])],
    token_endpoint_auth_method: registration.tokenEndpointAuthMethod,
    ...(registration.tokenEndpointAuthMethod === 'private_key_jwt' ? { token_endpoint_auth_signing_alg: 'PS256' } : {}),
    ...(registration.tlsClientAuthSubjectDn ? { tls_client_auth_subject_dn: registration.tlsClientAuthSubjectDn } : {}),
    id_token_signed_response_alg: 'PS256',
    // oidc-provider verifies signed request objects only; `none` ones are unwrapped by the sandbox first.
    ...(registration.requestObjectSigningAlg === 'PS256' && registration.profile.security === 'strict'
      ? { request_object_signing_alg: 'PS256' }
      : {}),
    scope: registration.scopes.join(' '),
    application_type: 'web',
    subject_type: 'public',
    jwks: { keys: software.jwks.keys },
    tls_client_certificate_bound_access_tokens: true,
    ob_registration: {
      orgId: ssa.org_id,
      orgName: ssa.org_name,
      softwareId: ssa.software_id,
      softwareRoles: ssa.software_roles,
      profile: registration.profile,
      tokenEndpointAuthMethod: registration.tokenEndpointAuthMethod,
      requestObjectSigningAlg: registration.requestObjectSigningAlg,
      grantTypes: registration.grantTypes,
      responseTypes: registration.responseTypes,
      applicationType: registration.applicationType,
      scopes: registration.scopes,
      softwareStatement: registration.softwareStatement,
      ssaClaims: { ...ssa },
      clientIdIssuedAt: identity.clientIdIssuedAt,
      registeredWithCertificate: certificateThumbprint,
    },
  }
}

const REQUEST_ONLY_SSA_CLAIMS = new Set(['iss', 'iat', 'exp', 'jti', 'nbf', 'aud'])

/**
 * The DCR 3.2 registration response (201 on create, 200 on read and update): the registered values, the
 * client id (and secret for client_secret_basic, which never expires), the chosen `sandbox_profile`,
 * and the software statement's claims flattened into the top level as the DCR text says.
 */
export function registrationResponse(metadata: SandboxClientMetadata): Record<string, unknown> {
  const ob = metadata.ob_registration
  const flattened = Object.fromEntries(Object.entries(ob.ssaClaims).filter(([k]) => !REQUEST_ONLY_SSA_CLAIMS.has(k)))
  return {
    ...flattened,
    client_id: metadata.client_id,
    client_id_issued_at: ob.clientIdIssuedAt,
    ...(metadata.client_secret ? { client_secret: metadata.client_secret, client_secret_expires_at: 0 } : {}),
    redirect_uris: metadata.redirect_uris,
    token_endpoint_auth_method: ob.tokenEndpointAuthMethod,
    token_endpoint_auth_signing_alg: 'PS256',
    ...(metadata.tls_client_auth_subject_dn ? { tls_client_auth_subject_dn: metadata.tls_client_auth_subject_dn } : {}),
    grant_types: ob.grantTypes,
    response_types: ob.responseTypes,
    scope: ob.scopes.join(' '),
    software_id: ob.softwareId,
    software_statement: ob.softwareStatement,
    application_type: ob.applicationType,
    id_token_signed_response_alg: 'PS256',
    request_object_signing_alg: ob.requestObjectSigningAlg,
    subject_type: 'public',
    [PROFILE_CLAIM]: profileName(ob.profile),
  }
}
