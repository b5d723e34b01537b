import type { CaptureMode } from '../contract/api.ts'
import type { CheckResult } from '../contract/checks.ts'
import type { EnvironmentDto } from '../contract/environments.ts'
import type { RequestObjectInput as SigningRequestObjectInput } from '../signing/request-object.ts'
import type { CaptureHub } from './capture/capture-hub.ts'

/** One HTTP exchange as a flow step sees it; the full exchange is in the exchange log under `exchangeId`. */
export interface FlowResponse {
  exchangeId: string
  status: number
  headers: Record<string, string>
  text: string
  /**
   * The body parsed as JSON when it is declared JSON and parses (undefined otherwise), parsed on first read.
   * Read what a step relies on through `readBankAnswer`, which checks it; `unknown` keeps anyone from reading
   * a member unchecked.
   */
  readonly json?: unknown
}

export interface FlowRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE'
  url: string
  headers?: Record<string, string>
  body?: string
  /** What the exchange is, for the inspector (`token (client_credentials)`). */
  label: string
  /** `false`: send without the client certificate (a public JWKS, the local directory). Redirects are never followed. */
  clientCertificate?: boolean
  /**
   * GETs are retried on a reset, 5xx or 429 unless this is `false`; a POST only when `true` and it
   * carries `x-idempotency-key` (each try sends the same key and body).
   */
  retry?: boolean
}

/** HTTP as flows use it: mutual TLS with the environment's identity, every exchange logged. */
export interface FlowHttp {
  send(request: FlowRequest): Promise<FlowResponse>
  /**
   * The response body of an earlier exchange, as the exchange log keeps it (undefined once the log no
   * longer does: cleared, or past its capacity or byte budget).
   */
  responseBody(exchangeId: string): Uint8Array | undefined
  /** Whether the exchange log keeps a response body of this many bytes whole (a larger one is kept cut). */
  keepsWhole(bytes: number): boolean
  /**
   * Opens the connection a request to `url` will take while the request is prepared (discovery read, claims
   * checked, JWT signed), so the request waits for what is left of the handshake, or none of it. No exchange
   * is made; nothing happens for an origin already connected. `clientCertificate: false` as in `FlowRequest`.
   */
  preconnect(url: string, options?: { clientCertificate?: false }): void
}

/** The request object's claims a flow chooses; the signer adds the times and the key. */
export type RequestObjectInput = Pick<
  SigningRequestObjectInput,
  'clientId' | 'issuer' | 'redirectUri' | 'scope' | 'state' | 'nonce' | 'consentId' | 'alg'
>

export interface IdTokenExpectations {
  issuer: string
  clientId: string
  nonce: string
  consentId: string
  code?: string
  state?: string
}

/** Signing and verification as flows use them (jose on the main side; keys never leave it). */
export interface FlowSigner {
  /** A private_key_jwt client assertion for the token endpoint. */
  clientAssertion(clientId: string, tokenEndpoint: string): Promise<string>
  requestObject(input: RequestObjectInput): Promise<string>
  /** Detached `x-jws-signature` over the exact bytes sent. */
  detachedJws(body: string): Promise<string>
  /** Checks a response's detached JWS against the bank's JWKS. */
  verifyDetachedJws(jws: string | undefined, body: string, jwksUri: string): Promise<CheckResult[]>
  /** The hybrid flow's ID token checks, one per claim. */
  checkIdToken(idToken: string, expected: IdTokenExpectations, jwksUri: string): Promise<CheckResult[]>
}

/** The registered client a flow acts as. */
export interface FlowClient {
  clientId: string
  authMethod: 'private_key_jwt' | 'client_secret_basic' | 'tls_client_auth'
  /** The client secret, for client_secret_basic (main side only). */
  secret?: string
  redirectUri: string
  orgId: string
  softwareId: string
}

export interface FlowCapture {
  mode: CaptureMode
  hub: CaptureHub
  /** How long to wait for the PSU (ms). */
  timeoutMs: number
  /** Desktop: opens the auth window for `auth-window` mode and delivers its redirect to the hub. */
  openAuthWindow?: (authorisationUrl: string, redirectUri: string) => void
}

export interface FlowContext {
  environment: EnvironmentDto
  client: FlowClient
  http: FlowHttp
  signer: FlowSigner
  capture: FlowCapture
  now: () => Date
}
