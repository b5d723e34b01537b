import type { CertificateInspectionDto, KeyInfoDto, SoftwareStatementDto } from './certificates.ts'

/** Where the console talks to: the embedded local sandbox, the bank's sandbox, or production. */
export type EnvironmentKind = 'local-sandbox' | 'bank-sandbox' | 'production'

/** `tls_client_auth` (RFC 8705): the client authenticates by its transport certificate, where discovery advertises it. */
export type TokenEndpointAuthMethod = 'private_key_jwt' | 'client_secret_basic' | 'tls_client_auth'

export interface ApiPaths {
  /** e.g. `/dynamic-client-registration/v3.2/register` */
  registration: string
  /** e.g. `/open-banking/v4.0/aisp` (some banks use `/open-banking/v4/aisp`) */
  ais: string
  /** e.g. `/open-banking/v4.0/pisp` */
  pis: string
  /** Sandbox convenience endpoints, e.g. `/o3/v1.0`; absent in production. */
  o3?: string
}

export interface EnvironmentDto {
  id: string
  name: string
  kind: EnvironmentKind
  /** `{base_url}`: resource server, registration and token endpoint (mutual TLS). */
  baseUrl: string
  /** `{auth_url}`: the authorisation server and issuer; discovery is `{auth_url}/.well-known/openid-configuration`. */
  authUrl: string
  apiPaths: ApiPaths
  /** Scheme of the bank's mobile app for the production deeplink (`<app_scheme>://consent-access-request`). */
  appScheme: string
  /**
   * How the bank's server certificate is checked: `exact-ca` against the given CA bundle only (the local
   * sandbox), `off` (the bank's sandbox, as its spec says; shown on every exchange), `system` (production).
   */
  tlsVerification: 'exact-ca' | 'off' | 'system'
  /** PEM CA bundle for `exact-ca`. Public material. */
  caBundlePem?: string
  /** The TPP identity used here. */
  tppId?: string
  /** Token endpoint auth methods the console allows here (production: private_key_jwt only). */
  allowedAuthMethods: TokenEndpointAuthMethod[]
  /** The embedded local sandbox's environment is created by the console and cannot be removed. */
  builtIn: boolean
  /**
   * The largest response body the console reads from this environment, in MiB (1 to 4096; default 50).
   * A larger body stops the step with RESPONSE_TOO_LARGE, its first MiB kept in the exchange.
   */
  maxResponseBodyMiB?: number
}

export type EnvironmentInput = Omit<EnvironmentDto, 'id' | 'builtIn'> & { id?: string }

/** A key the console holds on the main side, as the renderer may see it. */
export interface HeldKeyDto {
  key: KeyInfoDto
  /** The certificate that goes with it, when there is one. */
  certificate?: CertificateInspectionDto
}

/**
 * A TPP identity (the spec's prerequisites): organisation, software statement, transport certificate and
 * key, signing key and kid, the ecosystem's root and issuing CA, redirect URIs. Private keys stay on the
 * main side; this DTO carries their public facts only.
 */
export interface TppIdentityDto {
  id: string
  name: string
  orgId?: string
  softwareId?: string
  /** The software statement assertion (a JWT signed by the directory; public). */
  ssa?: string
  softwareStatement?: SoftwareStatementDto
  transport?: HeldKeyDto
  signing?: HeldKeyDto & { kid: string }
  rootCa?: CertificateInspectionDto
  issuingCa?: CertificateInspectionDto
  redirectUris: string[]
  createdAt: string
}

export type TppRole = 'transport' | 'signing' | 'rootCa' | 'issuingCa'

/** A client registered with a bank (the registration response, secret withheld). */
export interface ClientDto {
  clientId: string
  environmentId: string
  tppId: string
  authMethod: TokenEndpointAuthMethod
  scope: string
  redirectUris: string[]
  /** The registration response as the bank sent it, `client_secret` replaced by a placeholder. */
  registration: Record<string, unknown>
  hasSecret: boolean
  registeredAt: string
}

/**
 * The `sandbox_profile` that keeps a client from authorising headless (`strict`, `permissive`: the local
 * sandbox sends its PSU to the login page, where a headless call stops), or undefined when headless can work.
 * Only the local sandbox's clients say; elsewhere the bank alone knows. The flow form offers no headless
 * capture for such a client, and a flow started with one anyway is refused before it starts.
 */
export function headlessBlockingProfile(
  kind: EnvironmentKind,
  client: { registration: Record<string, unknown> },
): string | undefined {
  if (kind !== 'local-sandbox') return undefined
  const profile = client.registration['sandbox_profile']
  return typeof profile === 'string' && !profile.endsWith('-headless') ? profile : undefined
}
