import type { JSONWebKeySet } from 'jose'
import type { Middleware } from 'koa'

export type SoftwareRole = 'AISP' | 'PISP'

/** One TPP's software statement as the directory holds it (public parts only). */
export interface SoftwareStatementRecord {
  orgId: string
  orgName: string
  orgStatus: 'Active' | 'Revoked' | 'Withdrawn'
  softwareId: string
  clientName: string
  roles: SoftwareRole[]
  redirectUris: string[]
  /** `{directory_url}/organisation/{orgId}/software/{softwareId}/jwks` */
  jwksEndpoint: string
  /** The public signing JWK(s) of the software (each with `kid`, `use: sig`, `alg: PS256`). */
  jwks: JSONWebKeySet
  /** SHA-256 thumbprint (base64url) of each transport certificate issued to the software. */
  transportCertificateThumbprints: string[]
  /**
   * Subject DN, public-key hash (SPKI SHA-256) and thumbprint of each transport certificate issued to the
   * software: what a self-signed certificate is matched against. Absent on records written before it was
   * kept (the directory never stored the certificates, so it cannot be derived): such a TPP must use its
   * CA-issued transport certificate.
   */
  transportCertificates?: Array<{ thumbprint: string; subjectDn: string; spkiSha256: string }>
  createdAt: string
}

/** The claims of a software statement assertion, as the Open Banking directory issues them. */
export interface SoftwareStatementClaims {
  iss: string
  iat: number
  jti: string
  software_id: string
  software_client_id: string
  software_client_name: string
  software_client_description?: string
  software_version?: string
  software_environment: string
  software_mode: 'Test' | 'Live'
  software_roles: SoftwareRole[]
  software_redirect_uris: string[]
  software_jwks_endpoint: string
  software_jwks_revoked_endpoint?: string
  org_id: string
  org_name: string
  org_status: 'Active' | 'Revoked' | 'Withdrawn'
  org_jwks_endpoint?: string
  [claim: string]: unknown
}

/** Why a software statement assertion was refused: the DCR error code and a sentence naming the cause. */
export class SoftwareStatementError extends Error {
  constructor(
    readonly error: 'invalid_software_statement' | 'unapproved_software_statement',
    message: string,
  ) {
    super(message)
  }
}

export interface OnboardInput {
  orgName?: string
  clientName?: string
  roles?: SoftwareRole[]
  redirectUris?: string[]
}

/** Everything a TPP needs to onboard, as written by `ob-console sandbox --issue-tpp DIR`. */
export interface StarterKit {
  orgId: string
  orgName: string
  softwareId: string
  clientName: string
  roles: SoftwareRole[]
  redirectUris: string[]
  /** The software statement assertion (a JWT signed by the directory). */
  ssa: string
  jwksEndpoint: string
  /** Public JWKS of the signing key. */
  jwks: JSONWebKeySet
  signingKid: string
  signingKeyPem: string
  transportCertPem: string
  transportKeyPem: string
  caBundlePem: string
}

export interface Directory {
  /** `iss` of the software statement assertions it signs. */
  readonly issuer: string
  /** Public keys the directory signs SSAs with. */
  publicJwks(): JSONWebKeySet
  /**
   * Verifies an SSA's signature against the directory's keys and that the software is known and
   * active; returns its claims. Throws SoftwareStatementError naming the cause.
   */
  verifySoftwareStatement(ssa: string): Promise<SoftwareStatementClaims>
  /**
   * The software statement, from the bank documents (an unknown id is always read afresh, so a TPP
   * onboarded by another process or instance is known at once; one already read may be reused for TPP_RECHECK_MS).
   */
  software(softwareId: string): Promise<SoftwareStatementRecord | undefined>
  /**
   * Creates an organisation and software statement, with keys and a transport certificate. `input` is checked
   * here (an `OnboardInput`, from `POST /tpps` or a caller): anything else throws OnboardInputError naming the
   * field and the rule.
   */
  onboard(input: unknown): Promise<StarterKit>
  /** Koa middleware for the directory's origin: JWKS endpoints, onboarding, the sandbox admin clock. */
  routes(): Middleware
}
