/**
 * THE typed contract between the renderer and the main side: every call (`domain.verb`) with its input
 * and output, and every event (`domain.onDidX`). Served by Electron IPC (preload) and by the web host
 * alike; the renderer cannot tell them apart. Pure types plus the list of call names.
 */
import type { AccountDataDto, PsuAbsentBudgetDto } from './ais-data.ts'
import type { CertificateInspectionDto, SoftwareStatementDto } from './certificates.ts'
import type { CheckResult } from './checks.ts'
import type { ExchangeJwtChecksDto } from './diagnosis.ts'
import type {
  ClientDto,
  EnvironmentDto,
  EnvironmentInput,
  TokenEndpointAuthMethod,
  TppIdentityDto,
  TppRole,
} from './environments.ts'
import type { AppErrorDto, Result } from './errors.ts'
import type { ConformanceDto, ExchangeDto, SecretItemDto } from './exchange.ts'
import type { ExchangeFilter, ExchangePage, ExchangeSummaryDto } from './exchange-summaries.ts'
import type { SandboxReportDto } from './sandbox-report.ts'
import type { RegistrationOutcomeDto } from './registration-outcome.ts'
import type { SandboxClockDto, SandboxClockMove, SandboxFaultAdd, SandboxFaultsDto } from './sandbox-admin.ts'
import type { FlowPage, FlowPageQuery, FlowProgress, FlowState } from './flows.ts'
import type { DecodedJwtDto } from './jwt.ts'
import type { ConsentReadDto, ConsentRecordDto, DiscoveryViewDto } from './consents.ts'
import type {
  GenerateKeysInput,
  GeneratedKeysDto,
  PostmanImportDto,
  PostmanImportInput,
  PrerequisitesInput,
} from './tpp-tools.ts'

/** How the PSU's return from the bank reaches the console. */
export type CaptureMode =
  /** A headless sandbox client: the bank redirects at once; the console reads the redirect itself. */
  | 'headless'
  /** The browser returns to the console's loopback listener on `http://127.0.0.1:<port>/callback`. */
  | 'loopback'
  /** The desktop app's auth window, whose redirect is intercepted. */
  | 'auth-window'
  /** Production: the bank app deeplink; the return comes through the console's custom scheme or is pasted. */
  | 'deeplink'
  /** The user pastes the URL the browser returned to. */
  | 'pasted'

/**
 * The registration form: the claims of the bank spec's table 2.1 a TPP chooses. Absent fields take the
 * bank's defaults; `iss` (the SSA's software id), `aud` (`{auth_url}`), `iat` and `software_statement`
 * are derived, and a value given for `iss` or `aud` that differs is reported as a failing check.
 */
export interface RegistrationForm {
  iss?: string
  aud?: string
  /** exp = iat + this; default 3600 (the reference flow). */
  expiresInSeconds?: number
  jti?: string
  tokenEndpointAuthMethod?: TokenEndpointAuthMethod | string
  tokenEndpointAuthSigningAlg?: string
  grantTypes?: string[]
  subjectType?: string
  applicationType?: string
  /** Default: every redirect URI of the software statement. */
  redirectUris?: string[]
  /** Default: openid plus accounts (AISP) and payments (PISP) from the software statement's roles. */
  scope?: string
  requestObjectSigningAlg?: string
  responseTypes?: string[]
  idTokenSignedResponseAlg?: string
  /** Extra claims sent as they are (e.g. the local sandbox's `sandbox_profile`). */
  extraClaims?: Record<string, unknown>
}

export interface RegistrationPreviewDto {
  header: Record<string, unknown>
  claims: Record<string, unknown>
  /** One check per claim, as you type. */
  checks: CheckResult[]
  valid: boolean
  /** The signed JWT, when every check passes. */
  jwt?: string
}

export interface AisFlowInput {
  kind: 'ais'
  environmentId: string
  clientId: string
  permissions: string[]
  expirationDateTime?: string
  transactionFromDateTime?: string
  transactionToDateTime?: string
  /** The PSU is present: send `x-fapi-customer-ip-address` (no PSU-absent cap). */
  psuPresent: boolean
  psuIpAddress?: string
  capture: CaptureMode
  /**
   * Sandbox: the `/o3/v1.0/auth-code-url` helper; `request-object`: a request object the console signs;
   * `app-deeplink`: the same, sent as the bank app's deeplink (`<app_scheme>://consent-access-request`),
   * the production path (the default for production AIS).
   */
  authorisationUrlFrom: 'o3-helper' | 'request-object' | 'app-deeplink'
}

export interface PisFlowInput {
  kind: 'pis'
  environmentId: string
  clientId: string
  /** OBWriteDomesticConsent4 `Data.Initiation`. */
  initiation: Record<string, unknown>
  risk: Record<string, unknown>
  capture: CaptureMode
  authorisationUrlFrom: 'o3-helper' | 'request-object'
}

export type FlowInput = AisFlowInput | PisFlowInput

export interface JwtVerifyInput {
  token: string
  /** Where the verification key comes from. */
  key?: {
    pem?: string
    jwk?: Record<string, unknown>
    jwksUrl?: string
    environmentId?: string
    /** The signing key of one of the console's TPP identities (its public JWK, read on the main side). */
    tppId?: string
  }
  /** Which rule set to check the claims against. */
  rules?: 'registration' | 'request-object' | 'id-token' | 'client-assertion' | 'software-statement' | 'none'
  /**
   * Values the rules compare with (issuer, client id, nonce, code, state, intent id, token endpoint...). `at`:
   * the time (seconds since the epoch) exp, nbf and iat are judged at, default now (the inspector gives the
   * exchange's time).
   */
  expected?: Record<string, string>
}

export interface AppInfoDto {
  version: string
  host: 'electron' | 'web'
  dataDir: string
  /** Set once the embedded local sandbox runs. */
  localSandbox?: { baseUrl: string; authUrl: string; directoryUrl: string }
  /** How the secret store's master key is protected: wrapped by the OS keychain (desktop) or a 0600 key file. */
  masterKey?: { kind: 'os-keychain' | 'key-file'; detail: string }
}

export type { SandboxClockDto, SandboxClockMove } from './sandbox-admin.ts'
export type { SandboxReportDto, SandboxReportFailureDto, SandboxReportRuleDto } from './sandbox-report.ts'
export type { ClaimChangeDto, RegistrationOutcomeDto } from './registration-outcome.ts'

type Call<I, O> = { input: I; output: O }

export interface ContractCalls {
  'app.info': Call<void, AppInfoDto>
  'environments.list': Call<void, EnvironmentDto[]>
  'environments.save': Call<EnvironmentInput, EnvironmentDto>
  'environments.remove': Call<{ id: string }, void>
  /** Starts the embedded local sandbox (if not running) and returns its environment. */
  'environments.startLocalSandbox': Call<void, EnvironmentDto>
  'tpps.list': Call<void, TppIdentityDto[]>
  'tpps.save': Call<{ id?: string; name: string; orgId?: string; redirectUris: string[] }, TppIdentityDto>
  'tpps.remove': Call<{ id: string }, void>
  'tpps.importPem': Call<
    { tppId: string; role: TppRole; certificatePem?: string; keyPem?: string; passphrase?: string; kid?: string },
    TppIdentityDto
  >
  'tpps.importPkcs12': Call<
    { tppId: string; role: 'transport' | 'signing'; pkcs12Base64: string; passphrase: string; kid?: string },
    TppIdentityDto
  >
  'tpps.importSoftwareStatement': Call<{ tppId: string; ssa: string }, TppIdentityDto>
  /** The local sandbox only: one action obtains the whole starter kit from its directory. */
  'tpps.onboardLocal': Call<{ environmentId: string; name?: string }, TppIdentityDto>
  'tpps.checkPrerequisites': Call<{ tppId: string }, CheckResult[]>
  'certificates.inspect': Call<{ pem: string }, CertificateInspectionDto[]>
  'softwareStatements.decode': Call<{ ssa: string }, SoftwareStatementDto>
  'registration.defaults': Call<{ environmentId: string; tppId: string }, RegistrationForm>
  'registration.preview': Call<{ environmentId: string; tppId: string; form: RegistrationForm }, RegistrationPreviewDto>
  /** `sendAnyway`: send even when the claims fail the checks (to see the bank's answer). */
  'registration.register': Call<
    { environmentId: string; tppId: string; form: RegistrationForm; sendAnyway?: boolean },
    RegistrationOutcomeDto
  >
  'registration.read': Call<{ clientId: string }, { client: ClientDto; exchangeId: string }>
  'registration.update': Call<{ clientId: string; form: RegistrationForm }, RegistrationOutcomeDto>
  'registration.delete': Call<{ clientId: string }, { exchangeId: string }>
  'clients.list': Call<{ environmentId?: string }, ClientDto[]>
  'flows.start': Call<FlowInput, FlowState>
  'flows.get': Call<{ flowId: string }, FlowState>
  'flows.list': Call<FlowPageQuery, FlowPage>
  'flows.runStep': Call<{ flowId: string; stepId: string }, FlowState>
  /** Runs from the first step not done, stopping at a failure, at `until`, or where the PSU must act. */
  'flows.runAll': Call<{ flowId: string; until?: string }, FlowState>
  /** The refresh_token grant on the flow's PSU-authorised token, where discovery advertises it (else NOT_ADVERTISED). */
  'flows.refreshToken': Call<{ flowId: string }, { flow: FlowState; exchangeId: string }>
  /** Hands the flow a redirect URL (pasted, or from the deeplink handler). */
  'flows.capture': Call<{ flowId: string; url: string }, FlowState>
  'ais.accountData': Call<{ flowId: string }, AccountDataDto[]>
  'ais.budget': Call<{ flowId: string }, PsuAbsentBudgetDto[]>
  /** Before a step runs: what it would spend of the PSU-absent allowance, one row per call (empty: spends none). */
  'ais.budgetBefore': Call<{ flowId: string; stepId: string }, PsuAbsentBudgetDto[]>
  /** The local sandbox only: its clock, and moving it forward. */
  'sandbox.clock': Call<void, SandboxClockDto>
  'sandbox.moveClock': Call<SandboxClockMove, SandboxClockDto>
  /** The local sandbox only: its fault rules with their counts; adding one (checked by the sandbox), removing, clearing. */
  'sandbox.faults': Call<void, SandboxFaultsDto>
  'sandbox.addFault': Call<SandboxFaultAdd, SandboxFaultsDto>
  'sandbox.removeFault': Call<{ id: string }, SandboxFaultsDto>
  'sandbox.clearFaults': Call<void, SandboxFaultsDto>
  /** The local sandbox only: its conformance report of a client (every rule checked on its requests). */
  'sandbox.report': Call<{ clientId: string }, SandboxReportDto>
  /** The local sandbox's test PSUs' logins, for its login page (the local-sandbox environment only). */
  'sandbox.testPsus': Call<{ environmentId: string }, Array<{ username: string; password: string; name: string }>>
  'exchanges.list': Call<ExchangeFilter, ExchangePage>
  /**
   * One exchange, masked. `reveal`: refs (from its `secrets`) shown as they are in this one answer: the main
   * side keeps no trace of it, so every other answer (another window, an export) stays masked.
   */
  'exchanges.get': Call<{ id: string; reveal?: string[] }, ExchangeDto>
  /**
   * The bank-conformance verdict of one exchange, without its bodies: what the inspector asks again when a
   * check ends after the exchange was opened (its row arrives again with `violations`). Undefined for an
   * exchange the lens was never given (no answer, or not from an environment's {base_url} / {auth_url}).
   */
  'exchanges.conformance': Call<{ id: string }, ConformanceDto | undefined>
  /**
   * One exchange as curl or HAR. For curl, `certPath`/`keyPath`/`caPath` name the files to put in
   * `--cert`/`--key`/`--cacert`; without them, the engine's defaults (the local sandbox's CA bundle) or
   * placeholders with a note. Key material never appears: only a path.
   */
  'exchanges.export': Call<
    { id: string; format: 'curl' | 'har'; certPath?: string; keyPath?: string; caPath?: string },
    string
  >
  'exchanges.clear': Call<void, void>
  /**
   * Every JWT of one exchange checked as its role asks (guessed from where it sat): the signature against
   * the right key (the directory's JWKS for a software statement, the TPP's signing key for what the TPP
   * signs, the bank's JWKS for ID tokens and the bank's x-jws-signature), then the role's rule set, times
   * judged at the moment of the exchange. Fetching a JWKS is logged as an exchange of its own.
   */
  'exchanges.checkJwts': Call<{ id: string }, ExchangeJwtChecksDto>
  /**
   * Every exchange the filter matches (what the inspector shows, all pages; oldest first) as one HAR 1.2
   * document: a whole journey with `{ flowId }`. Masked: a Reveal never reaches an export.
   */
  'exchanges.har': Call<ExchangeFilter, string>
  /**
   * The same exchanges as a Postman Collection v2.1 (JSON text) named `name`: masked as the views are; each
   * request's description says which JWTs must be signed again (Postman cannot sign) and that mutual TLS
   * needs the identity's certificate in Postman.
   */
  'exchanges.postman': Call<ExchangeFilter & { name?: string }, string>
  /**
   * One masked secret of one exchange or one flow (its `ref` from `ExchangeDto.secrets` or
   * `FlowState.secrets`), answered to the caller alone: the main side keeps nothing of it, so every view,
   * event and export (curl, HAR, Postman), this window's later ones included, stays masked. The window
   * shows the value until the user masks it again, leaves that view, or five minutes pass.
   * Private keys are never revealed (INVALID_INPUT).
   */
  'secrets.reveal': Call<{ exchangeId?: string; flowId?: string; ref: string }, { value: string; item: SecretItemDto }>
  'jwt.decode': Call<{ token: string }, DecodedJwtDto>
  'jwt.verify': Call<JwtVerifyInput, { decoded: DecodedJwtDto; checks: CheckResult[] }>
  /** The consents the console created (newest first), for one client or environment. */
  'consents.list': Call<{ clientId?: string; environmentId?: string }, ConsentRecordDto[]>
  /** GET the consent from the bank; the list keeps its status and expiry. */
  'consents.get': Call<{ consentId: string }, ConsentReadDto>
  /** DELETE (revoke) an account access consent. */
  'consents.delete': Call<{ consentId: string }, { consent: ConsentRecordDto; exchangeId: string }>
  /** A consent's PSU-absent allowance as counted and kept across restarts (no flow needed). */
  'consents.budget': Call<{ consentId: string }, PsuAbsentBudgetDto[]>
  /** The client marked current in an environment. */
  'clients.current': Call<{ environmentId: string }, { clientId?: string }>
  'clients.setCurrent': Call<{ environmentId: string; clientId: string }, void>
  /**
   * Discovery laid out, with the capability checks against the environment and the client's registration,
   * or `claims` (a registration about to be sent: the registration builder's pre-flight).
   */
  'discovery.view': Call<
    { environmentId: string; clientId?: string; claims?: Record<string, unknown> },
    DiscoveryViewDto
  >
  /** The sandbox's o3 helpers. */
  'o3.authCodeUrl': Call<
    { clientId: string; consentId: string; scope?: string },
    { url: string; response: Record<string, unknown>; exchangeId: string }
  >
  'o3.postmanEnvironment': Call<{ clientId: string }, { environment: Record<string, unknown>; exchangeId: string }>
  /**
   * Every prerequisite of an identity for an environment, each with its fix: the files (key match, chain,
   * expiry) and the directory (organisation, SSA signature and kid, certificate subject, redirect URIs).
   */
  'prerequisites.check': Call<PrerequisitesInput, CheckResult[]>
  /** Key pairs and CSRs (Open Banking subject), optionally a self-signed transport certificate; private keys stay in the store. */
  'certificates.generate': Call<GenerateKeysInput, GeneratedKeysDto>
  /** Pairs the certificate the directory issued from a generated CSR with the key waiting for it. */
  'certificates.attach': Call<
    { tppId: string; role: 'transport' | 'signing'; certificatePem: string; kid?: string },
    TppIdentityDto
  >
  /** A Postman environment (Postman's export or the sandbox's o3 download) as an environment. */
  'environments.importPostman': Call<PostmanImportInput, PostmanImportDto>
}

export type CallName = keyof ContractCalls
export type CallInput<N extends CallName> = ContractCalls[N]['input']
export type CallOutput<N extends CallName> = ContractCalls[N]['output']

/** The main side's implementation: one function per call, answering results (never throwing). */
export type ContractHandlers = { [N in CallName]: (input: CallInput<N>) => Promise<Result<CallOutput<N>>> }

export interface ContractEvents {
  'flows.onDidProgress': FlowProgress
  'exchanges.onDidRecord': ExchangeSummaryDto
  /** The console's custom scheme received a URL (desktop): the flow waiting on its state takes it. */
  'flows.onDidReceiveDeeplink': { url: string; flowId?: string }
  'app.onDidFail': AppErrorDto
}

export type EventName = keyof ContractEvents

/** Every call name, at run time: the preload exposes exactly these, and the web host routes exactly these. */
export const CALL_NAMES = [
  'app.info',
  'environments.list',
  'environments.save',
  'environments.remove',
  'environments.startLocalSandbox',
  'tpps.list',
  'tpps.save',
  'tpps.remove',
  'tpps.importPem',
  'tpps.importPkcs12',
  'tpps.importSoftwareStatement',
  'tpps.onboardLocal',
  'tpps.checkPrerequisites',
  'certificates.inspect',
  'softwareStatements.decode',
  'registration.defaults',
  'registration.preview',
  'registration.register',
  'registration.read',
  'registration.update',
  'registration.delete',
  'clients.list',
  'flows.start',
  'flows.get',
  'flows.list',
  'flows.runStep',
  'flows.runAll',
  'flows.capture',
  'ais.accountData',
  'ais.budget',
  'exchanges.list',
  'exchanges.get',
  'exchanges.conformance',
  'exchanges.export',
  'exchanges.clear',
  'exchanges.har',
  'exchanges.postman',
  'exchanges.checkJwts',
  'secrets.reveal',
  'jwt.decode',
  'jwt.verify',
  'consents.list',
  'consents.get',
  'consents.delete',
  'clients.current',
  'clients.setCurrent',
  'discovery.view',
  'o3.authCodeUrl',
  'o3.postmanEnvironment',
  'sandbox.clock',
  'sandbox.moveClock',
  'sandbox.faults',
  'sandbox.addFault',
  'sandbox.removeFault',
  'sandbox.clearFaults',
  'sandbox.testPsus',
  'sandbox.report',
  'ais.budgetBefore',
  'consents.budget',
  'flows.refreshToken',
  'prerequisites.check',
  'certificates.generate',
  'certificates.attach',
  'environments.importPostman',
] as const satisfies readonly CallName[]

/** Compile-time check that CALL_NAMES lists every call. */
type Missing = Exclude<CallName, (typeof CALL_NAMES)[number]>
export const CALL_NAMES_COMPLETE: Missing extends never ? true : Missing = true
