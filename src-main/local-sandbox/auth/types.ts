import type { JSONWebKeySet } from 'jose'
import type { Middleware } from 'koa'
import type { SoftwareRole } from '../directory/types.ts'

/** A client's profile, chosen at registration (see docs/local-sandbox/authorisation.md, "Client profiles"). */
export interface ClientProfile {
  /** strict: production-like (private_key_jwt, PS256 request objects). permissive: also client_secret_basic and `alg: none`. */
  security: 'strict' | 'permissive'
  /** headless: authorisation approves at once as the default test PSU. non-headless: the PSU login page. */
  headless: boolean
}

export interface RegisteredClient {
  clientId: string
  orgId: string
  softwareId: string
  softwareRoles: SoftwareRole[]
  redirectUris: string[]
  tokenEndpointAuthMethod: 'private_key_jwt' | 'client_secret_basic' | 'tls_client_auth'
  profile: ClientProfile
  /** SHA-256 thumbprint of the transport certificate used at registration. */
  registeredWithCertificate?: string
}

export interface ClientRegistry {
  get(clientId: string): Promise<RegisteredClient | undefined>
}

/** What the resource server learns from a valid access token. */
export interface TokenInfo {
  clientId: string
  /** How the token was obtained: client credentials, or an authorisation code (also after refresh). */
  grant: 'client_credentials' | 'authorization_code'
  scopes: string[]
  /** The consent (`openbanking_intent_id`) an authorisation-code token was issued for. */
  consentId?: string
  /** `cnf.x5t#S256`: the transport certificate the token is bound to (RFC 8705). */
  certificateThumbprint?: string
  /** Seconds since the epoch, sandbox time. */
  expiresAt: number
}

export interface AccessTokenVerifier {
  /** The token's facts, or undefined when it is unknown, expired, revoked or malformed. */
  verify(accessToken: string): Promise<TokenInfo | undefined>
}

export interface AuthorisationServer {
  /** Browser-facing origin {auth_url}: discovery, JWKS, authorisation, PSU pages, the app deeplink page. No mTLS. */
  authOrigin: Middleware
  /**
   * Routes it serves on {base_url} (mutual TLS): token, dynamic client registration, /o3 helpers.
   * Calls `next()` for any other path.
   */
  baseOrigin: Middleware
  tokens: AccessTokenVerifier
  clients: ClientRegistry
  /** Public JWKS the sandbox signs ID tokens and PIS responses with (also served at the discovery's jwks_uri). */
  publicJwks(): JSONWebKeySet
}
