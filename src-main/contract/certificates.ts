import type { CheckResult } from './checks.ts'

/** One attribute of a distinguished name, in certificate (ASN.1) order. */
export interface DnAttributeDto {
  /** Short name (`CN`, `OU`, `O`, `C`...) or dotted OID. */
  type: string
  value: string
}

/** Public-key facts of a certificate or key. */
export interface PublicKeyDto {
  type: 'RSA' | 'EC' | 'Ed25519' | 'Ed448' | 'unknown'
  /** Modulus size in bits for RSA; curve size for EC. */
  size?: number
  /** `P-256`, `P-384`, `P-521` for EC. */
  curve?: string
}

/** Everything the console shows about one X.509 certificate. */
export interface CertificateInspectionDto {
  /** RFC 4514 string (last RDN first), e.g. `CN=software,OU=org,O=TPP Ltd,C=GB`. */
  subjectDn: string
  issuerDn: string
  subject: DnAttributeDto[]
  issuer: DnAttributeDto[]
  /** Hex, as printed by OpenSSL (lower case, no separators). */
  serialNumber: string
  notBefore: string
  notAfter: string
  /** Whole days until `notAfter` (negative once expired). */
  daysToExpiry: number
  expired: boolean
  notYetValid: boolean
  /** Set when the certificate expires within 30 days or has expired. */
  expiryWarning?: string
  subjectAltNames: Array<{ type: string; value: string }>
  publicKey: PublicKeyDto
  signatureAlgorithm: string
  /** SHA-256 of the DER, hex pairs separated by colons (upper case, as browsers show it). */
  sha256Hex: string
  /** SHA-256 of the DER, base64url: the `x5t#S256` of JWKs and the `cnf` of bound tokens (RFC 8705). */
  x5tS256: string
  /** The exact subject DN a `tls_client_auth` client registers (`tls_client_auth_subject_dn`). */
  tlsClientAuthSubjectDn: string
  /** Open Banking transport/signing certificates: OU is the organisation id, CN the software id. */
  orgId?: string
  softwareId?: string
  isCa: boolean
  selfSigned: boolean
  keyUsages: string[]
  extendedKeyUsages: string[]
}

/** A private key as the renderer may see it: an id and public facts, never the key itself. */
export interface KeyInfoDto {
  keyId: string
  publicKey: PublicKeyDto
  /** RFC 7638 JWK thumbprint (SHA-256, base64url): the default `kid`. */
  jwkThumbprint: string
  publicJwk: Record<string, unknown>
}

/** A stored identity: transport or signing certificate with its key, referred to by id. */
export interface IdentityDto {
  id: string
  label: string
  certificate: CertificateInspectionDto
  /** Certificates sent along with the leaf (issuing CA...), inspected. */
  chain: CertificateInspectionDto[]
  key: KeyInfoDto
  createdAt: string
}

/** The result of building a chain from a leaf to a root among given CA certificates. */
export interface ChainResultDto {
  valid: boolean
  /** Subject DNs from the leaf up to the last certificate reached. */
  path: string[]
  /** Why the chain is not valid, when it is not. */
  reason?: string
  checks: CheckResult[]
}

/** Summary of an Open Banking software statement assertion (SSA). */
export interface SoftwareStatementDto {
  softwareId?: string
  orgId?: string
  orgName?: string
  clientName?: string
  roles: string[]
  redirectUris: string[]
  jwksEndpoint?: string
  issuer?: string
  issuedAt?: string
  mode?: string
  claims: Record<string, unknown>
}
