import type { SoftwareStatementClaims } from '../../directory/types.ts'
import type { ClientProfile } from '../types.ts'
import * as auth from './registration-auth-rules.ts'
import type { RequestObjectSigningAlg, TokenEndpointAuthMethod } from './registration-auth-rules.ts'
import * as identity from './registration-identity-rules.ts'
import * as metadata from './registration-metadata-rules.ts'

/**
 * The claim rules of the bank's registration request (spec section 2.1, with DCR 3.2 where the bank's
 * table says nothing), run in the order of the spec's table. Each rule is a small pure function that throws
 * a RegistrationError naming the claim, the value found and what was expected: whose the request is and
 * that it is fresh (`registration-identity-rules.ts`), what the client asks for
 * (`registration-metadata-rules.ts`), how it authenticates and signs (`registration-auth-rules.ts`).
 */

/** A registration request whose claims all passed. */
export interface ValidRegistration {
  jti: string
  iat: number
  exp: number
  redirectUris: string[]
  tokenEndpointAuthMethod: TokenEndpointAuthMethod
  tokenEndpointAuthSigningAlg: 'PS256'
  grantTypes: string[]
  subjectType: 'public'
  applicationType: 'web' | 'mobile'
  scopes: string[]
  requestObjectSigningAlg: RequestObjectSigningAlg
  responseTypes: string[]
  idTokenSignedResponseAlg: 'PS256'
  softwareStatement: string
  profile: ClientProfile
  /** tls_client_auth clients (the extension): the transport certificate's subject DN they authenticate with. */
  tlsClientAuthSubjectDn?: string
}

export interface RegistrationRuleContext {
  /** `{auth_url}`: the only accepted `aud`. */
  authUrl: string
  /** Seconds since the epoch against which `iat` and `exp` are checked. */
  nowSeconds: number
  /** The verified software statement's claims. */
  ssa: SoftwareStatementClaims
  /** The extension beyond the bank's spec: tls_client_auth accepted. */
  tlsClientAuth?: boolean
  /** The subject DNs of the client certificate of the registration request (RFC 4514 and certificate order). */
  certificateSubjectDns?: string[]
}

/**
 * Runs every claim rule of the registration request, in the order of the spec's table. Throws the first
 * RegistrationError; returns the normalised registration.
 */
export function validateRegistrationClaims(
  claims: Record<string, unknown>,
  ctx: RegistrationRuleContext,
): ValidRegistration {
  identity.checkIssuer(claims, ctx.ssa)
  identity.checkAudience(claims, ctx.authUrl)
  const { iat, exp } = identity.checkTimes(claims, ctx.nowSeconds)
  const jti = identity.checkJti(claims)
  const tokenEndpointAuthSigningAlg = auth.checkTokenEndpointAuthSigningAlg(claims)
  const grantTypes = metadata.checkGrantTypes(claims)
  const subjectType = metadata.checkSubjectType(claims)
  const applicationType = metadata.checkApplicationType(claims)
  const redirectUris = metadata.checkRedirectUris(claims, ctx.ssa.software_redirect_uris)
  const tokenEndpointAuthMethod = auth.checkTokenEndpointAuthMethod(claims, ctx.tlsClientAuth)
  const tlsClientAuthSubjectDn =
    tokenEndpointAuthMethod === 'tls_client_auth'
      ? auth.checkTlsClientAuthSubjectDn(claims, ctx.certificateSubjectDns ?? [])
      : undefined
  const scopes = metadata.checkScope(claims, ctx.ssa.software_roles)
  const requestObjectSigningAlg = auth.checkRequestObjectSigningAlg(claims)
  const responseTypes = metadata.checkResponseTypes(claims)
  const idTokenSignedResponseAlg = auth.checkIdTokenSignedResponseAlg(claims)
  const softwareStatement = identity.checkSoftwareStatementPresent(claims)
  const profile = auth.resolveProfile(claims, tokenEndpointAuthMethod, requestObjectSigningAlg, applicationType)
  return {
    jti,
    iat,
    exp,
    redirectUris,
    tokenEndpointAuthMethod,
    tokenEndpointAuthSigningAlg,
    grantTypes,
    subjectType,
    applicationType,
    scopes,
    requestObjectSigningAlg,
    responseTypes,
    idTokenSignedResponseAlg,
    softwareStatement,
    profile,
    ...(tlsClientAuthSubjectDn ? { tlsClientAuthSubjectDn } : {}),
  }
}
