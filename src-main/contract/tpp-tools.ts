// The TPP's own tools across the contract: prerequisites against the directory, key and CSR generation,
// Postman environment import. Pure types; the implementations are in src-main/services/.
import type { EnvironmentDto } from './environments.ts'

/** Key types the console generates (the signing key must be RSA: Open Banking signs PS256). */
export const GENERATED_KEY_TYPES = ['RSA-2048', 'RSA-3072', 'EC-P256'] as const
export type GeneratedKeyTypeName = (typeof GENERATED_KEY_TYPES)[number]

export interface GenerateKeysInput {
  /** An existing identity, else one is created under `tppName`. */
  tppId?: string
  tppName?: string
  orgId: string
  softwareId: string
  /** The subject's `O` (default "OpenBanking", as the Open Banking directory expects). */
  organisation?: string
  country?: string
  keyType: GeneratedKeyTypeName
  roles: Array<'transport' | 'signing'>
  /** A self-signed transport certificate (the bank's sandbox), beside the CSR. */
  selfSigned?: boolean
  validDays?: number
  kid?: string
}

/** The public parts of what was generated; the private keys went into the encrypted store. */
export interface GeneratedKeysDto {
  tppId: string
  subjectDn: string
  transport?: { csrPem: string; certificatePem?: string; waitsForCertificate: boolean }
  signing?: { csrPem: string; kid: string }
  /** Public keys as a JWKS (transport `use: tls`, signing `use: sig` with its kid). */
  jwks: { keys: Array<Record<string, unknown>> }
}

export interface PrerequisitesInput {
  tppId: string
  environmentId: string
  /**
   * The directory's JWKS for the SSA signature check where the directory cannot be asked (the bank's):
   * its URL, or the JWKS document itself (JSON text). The local sandbox's directory is asked directly.
   */
  directoryJwks?: string
}

export interface PostmanImportInput {
  /** The Postman environment file's text (Postman's export, or the sandbox's o3 download). */
  json: string
  /** The environment's name; default the file's, else "Imported from Postman". A saved one of that name is updated. */
  name?: string
  /** The identity the file's client was registered with: the client is kept (its secret, if any, encrypted). */
  tppId?: string
  /** Default `off`, as the bank's sandbox requires. */
  tlsVerify?: 'off' | 'system'
}

export interface PostmanImportDto {
  environment: EnvironmentDto
  /** The file's client, kept and marked current. */
  clientId?: string
  /** What was not taken from the file, and why. */
  notes: string[]
}
