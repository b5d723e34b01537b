import type { SandboxClock } from './clock.ts'
import type { ConsentStore } from './consents/consent-store.ts'
import type { DataDirLayout } from './data-dir.ts'
import type { Directory } from './directory/types.ts'
import type { SandboxSigningKey } from './keys.ts'
import type { EcosystemPki } from './pki/types.ts'
import type { PsuDirectory } from './psus.ts'
import type { SandboxStore } from './store/sandbox-store.ts'

export interface SandboxAddresses {
  /** Resource server, registration and token endpoint (mutual TLS): `{base_url}`. */
  baseUrl: string
  /** Authorisation server, browser-facing (discovery, authorisation, PSU pages): `{auth_url}`, also the issuer. */
  authUrl: string
  /** The local directory (software statements, JWKS endpoints, onboarding, admin). */
  directoryUrl: string
}

/** Everything a part of the sandbox may use; built once by `startLocalSandbox`. */
export interface SandboxContext {
  addresses: SandboxAddresses
  /**
   * The addresses are set (a public host or port): every URL names them, whatever Host a request sent.
   * Otherwise discovery follows the request's Host (127.0.0.1 or localhost, as the client called it).
   */
  fixedAddresses?: boolean
  layout: DataDirLayout
  clock: SandboxClock
  psus: PsuDirectory
  /** The sandbox's state: consents, payments, idempotency keys, PSU-absent counters, registration jtis, clock offset. */
  store: SandboxStore
  consents: ConsentStore
  pki: EcosystemPki
  directory: Directory
  signingKey: SandboxSigningKey
  /** One line of operator log (stderr by default; never stdout, which `--json` keeps for the address line). */
  log: (line: string) => void
  /** Extensions beyond the bank's spec, off by default (docs/local-sandbox.md, "Extensions"). */
  extensions?: SandboxExtensions
}

/** What the sandbox may offer beyond the bank's spec, each off unless asked for. */
export interface SandboxExtensions {
  /** `tls_client_auth` (RFC 8705) client authentication: advertised, registrable, accepted at the token endpoint. */
  tlsClientAuth?: boolean
}
