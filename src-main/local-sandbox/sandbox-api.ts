import type { PsuAbsentQuota } from './ais/access/psu-absent-limiter.ts'
import type { ConformanceClientSummary, ConformanceReport } from './conformance/report-types.ts'
import type { SandboxAddresses, SandboxContext } from './context.ts'
import type { FaultRuleInput } from './faults/fault-rules.ts'
import type { FaultRuleState } from './faults/fault-set.ts'
import type { TransportCertificates } from './http/peer-certificate.ts'
import type { Psu } from './psus.ts'
import type { StoreSpec } from './store/open-store.ts'
import type { SandboxStore } from './store/sandbox-store.ts'

/** What `startLocalSandbox` (index.ts) takes and gives: its options and the running sandbox. */

/** The running sandbox's conformance records (docs/local-sandbox.md, "Conformance report"). */
export interface SandboxConformance {
  /** One client's report (or `cert:<x5t#S256>`'s), undefined when nothing was recorded for it. */
  report(clientId: string): Promise<ConformanceReport | undefined>
  /** Every client with a record, most recently active first. */
  clients(): Promise<ConformanceClientSummary[]>
  /** Forgets one client's record, or all; returns how many were removed. */
  clear(clientId?: string): Promise<number>
}

/** The running sandbox's fault rules (docs/local-sandbox.md, "Fault mode"). Bad rules throw FaultRuleError. */
export interface SandboxFaults {
  /** Replaces every rule. */
  set(rules: FaultRuleInput[]): Promise<FaultRuleState[]>
  /** Adds one rule at the end. */
  add(rule: FaultRuleInput): Promise<FaultRuleState>
  /** Removes one rule by id; false when there is none. */
  remove(id: string): Promise<boolean>
  /** Removes every rule. */
  clear(): Promise<void>
  /** The rules with how many requests each has seen and faulted (on a shared store: by every instance). */
  list(): Promise<FaultRuleState[]>
}

export interface SandboxOptions {
  /**
   * Port of `{base_url}`; `{auth_url}` takes port + 1 and the directory port + 2. 0 (the default):
   * three free ports.
   */
  port?: number
  /** The address the three servers listen on; default 127.0.0.1 (this machine only). */
  bind?: string
  /** The host name or IP address in every URL the sandbox writes; default 127.0.0.1. */
  publicHost?: string
  /**
   * `{base_url}`'s port in every URL the sandbox writes (`{auth_url}` port + 1, the directory + 2), when a
   * balancer or a port mapping stands in front; default: the ports listened on.
   */
  publicPort?: number
  /** Where certificates, keys, clients and consents live. Default: $OB_CONSOLE_SANDBOX_DIR or ~/.ob-console/local-sandbox. */
  dataDir?: string
  /**
   * How `{base_url}` treats a missing or foreign client certificate. `explain` (default): the TLS
   * handshake completes and the API answers 401 with a sentence naming the problem. `handshake`: the
   * handshake is refused, as the bank's servers do.
   */
  tlsMode?: 'explain' | 'handshake'
  /** Start with the sandbox clock this many milliseconds ahead of wall time. */
  clockOffsetMs?: number
  /**
   * Profile for a reading the bank's spec leaves open: what the four PSU-absent accesses in 24 hours
   * count. `per-endpoint` (default): per consent, account and endpoint. `per-consent`: per consent,
   * whatever the endpoint. See docs/local-sandbox.md, "Profiles".
   */
  /**
   * Extension beyond the bank's spec (off by default): offer `tls_client_auth` client authentication
   * (RFC 8705) besides private_key_jwt and client_secret_basic. See docs/local-sandbox.md, "Extensions".
   */
  tlsClientAuth?: boolean
  psuAbsentQuota?: PsuAbsentQuota
  /**
   * Profile: which client certificates mutual TLS accepts. `self-signed-allowed` (default, spec section 5:
   * "The sandbox accepts self-signed certificates"): those issued by the directory's CA, and a self-signed
   * one whose subject DN and public key match a transport certificate the directory issued. `ca-issued`:
   * only those issued by the directory's CA, as production. See docs/local-sandbox.md, "Profiles".
   */
  transportCertificates?: TransportCertificates
  /** Operator log lines; default: stderr. */
  log?: (line: string) => void
  /**
   * A PKI template folder (see `pki/template.ts`): a fresh data directory is seeded from it instead of
   * minting the bank's keys and certificates, and the template is made from this sandbox when missing.
   * For throwaway sandboxes; a data directory that already has its PKI keeps it. Not used with a database
   * store, whose one identity (created by its first instance) serves every instance.
   */
  pkiTemplate?: string
  /** Fault rules in force from the start (docs/local-sandbox.md, "Fault mode"); checked before anything starts. */
  faults?: FaultRuleInput[]
  /**
   * Where the sandbox's state lives (see store/sandbox-store.ts): a store opened by the caller (it stays
   * open: its opener closes it), or a spec opened here and closed by `stop` (`parseStoreSpec`: `embedded`,
   * the default, over the data directory; or a postgres:// URL).
   */
  store?: SandboxStore | StoreSpec
  /**
   * The admin token: with one, the directory's `/admin/*` endpoints and `POST /tpps` (whose answer holds
   * private keys) need `Authorization: Bearer <token>` (at least 24 printable ASCII characters). Without
   * one they are open, as on a sandbox only its own machine reaches.
   */
  adminToken?: string
  /**
   * Require an admin token even when `adminToken` is not given (the command line does with a non-loopback
   * `bind`): one is then made once and kept, as its SHA-256, in the bank documents (`auth/admin-token.json`,
   * shared by every instance on a store), and `generatedAdminToken` carries it on the start that made it.
   */
  requireAdminToken?: boolean
}

export interface RunningSandbox extends SandboxAddresses {
  /** The ports the three servers listen on (the URLs above name the public ones, when set). */
  listeningPorts: { base: number; auth: number; directory: number }
  dataDir: string
  /** PEM file with the root and issuing CA: trust it for the servers, and it issues the transport certificates. */
  caBundlePath: string
  caBundlePem: string
  /** The transport-certificate profile in force (see SandboxOptions). */
  transportCertificates: TransportCertificates
  psus: Array<Pick<Psu, 'username' | 'password' | 'name'>>
  /** The in-process context, for tests and the embedding console. */
  context: SandboxContext
  /** Fault mode: rules that make the sandbox answer like a failing bank. */
  faults: SandboxFaults
  /** What each client did wrong (and right): the rules checked on its requests. */
  conformance: SandboxConformance
  /** Whether the directory's admin endpoints and `POST /tpps` need the admin token. */
  adminTokenRequired: boolean
  /** The admin token this start made (see `requireAdminToken`): show it once; it is kept only as its hash. */
  generatedAdminToken?: string
  /**
   * Stops the servers (and the store it opened): `GET /readyz` answers 503 at once, no new connection is
   * taken, and requests in flight may finish within `graceMs` (default 0: every connection closed now).
   */
  stop(options?: { graceMs?: number }): Promise<void>
}
