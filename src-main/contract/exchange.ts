import type { ExchangeDiagnosisDto } from './diagnosis.ts'
import type { AppErrorDto, ErrorCode } from './errors.ts'
import type { DecodedJwtDto } from './jwt.ts'

/** A request or response body as logged: text (or base64 for binary), possibly cut at the log's cap. */
export interface BodyDto {
  /** UTF-8 text, or base64 when `encoding` is `base64`. Cut to the cap when `truncated`. */
  text: string
  encoding: 'utf8' | 'base64'
  /** Size in bytes of the whole body, as sent or received. */
  size: number
  truncated: boolean
  contentType?: string
  /**
   * Set when the exchange log no longer keeps this body (newer bodies used its byte budget): `text` is
   * empty, `size` is still the body's size, `reason` says so and what to do. Absent while it is kept.
   */
  dropped?: { reason: string }
}

/** Header name and value, in wire order; repeated headers appear repeatedly. */
export type HeaderDto = [name: string, value: string]

/** Milliseconds spent in each phase of one exchange. Connect and TLS are 0 on a reused connection. */
export interface TimingsDto {
  /** DNS lookup, when one happened. */
  dns?: number
  /** TCP connect (from the start of connecting). */
  connect: number
  /** TLS handshake. */
  tls: number
  /** From sending the request to the response headers. */
  firstByte: number
  /** The whole exchange, body read included. */
  total: number
  /**
   * A new connection opened ahead of the request, while the console prepared it (the registration's: while it
   * read discovery and signed the JWT): the ms of its setup done before the request started. DNS, connect and
   * TLS then count only what the request still waited for.
   */
  preconnected?: number
}

/** The client certificate offered on the connection and whether the server asked for it. */
export interface PresentedCertificateDto {
  subjectDn: string
  /** base64url SHA-256 of the DER (`x5t#S256`). */
  thumbprint: string
  /** True when the server requested a client certificate during the handshake, so this one was sent. */
  sent: boolean
}

/** The TLS facts of the connection an exchange used. */
export interface TlsInfoDto {
  protocol?: string
  cipher?: string
  /** `on`: the server certificate was verified. `off`: not verified (the bank's sandbox, per its spec). */
  verification: 'on' | 'off'
  /** With verification off: what verification would have said (e.g. `SELF_SIGNED_CERT_IN_CHAIN`). */
  unverifiedReason?: string
  serverCertificate?: { subjectDn: string; issuerDn: string; validTo: string; sha256Hex: string }
  /** The server sent a CertificateRequest (it wants mutual TLS). */
  clientCertificateRequested: boolean
  /** The connection resumed an earlier TLS session of the same origin (abbreviated handshake). */
  sessionResumed?: boolean
}

/** One HTTP exchange as the inspector shows it. */
export interface ExchangeDto {
  id: string
  /** ISO time the request started. */
  startedAt: string
  environmentId?: string
  identityId?: string
  /** Free label from the flow step that made it (`registration`, `token (client_credentials)`...). */
  label?: string
  /** True when the console made it for itself (its local sandbox's admin calls), not for the user's flows. */
  byConsole?: boolean
  request: { method: string; url: string; headers: HeaderDto[]; body?: BodyDto }
  response?: { status: number; statusText?: string; headers: HeaderDto[]; body?: BodyDto }
  timings: TimingsDto
  reusedConnection: boolean
  /** Null when the identity has no client certificate. */
  presentedCertificate: PresentedCertificateDto | null
  tls?: TlsInfoDto
  /** Set when the exchange failed (no response, or a response classified as an error). */
  error?: AppErrorDto
  /** The flow step that failed on this exchange (its HAR entry's comment names it too). */
  failedStep?: FailedStepDto
  /** What the exchange comes to, explained (made when it is read): outcome, the coded error, the spec sections. */
  diagnosis?: ExchangeDiagnosisDto
  /** Every JWT found in the exchange, decoded. */
  jwts: DecodedJwtDto[]
  /** True when secrets in this view were replaced by placeholders. */
  redacted: boolean
  /** Every secret found in the exchange, masked (or revealed, one by one, through `secrets.reveal`). */
  secrets?: SecretItemDto[]
  /** The bank-conformance lens: the answer checked against the official OB v4.0 schemas and the bank's rules. */
  conformance?: ConformanceDto
}

/** A flow step that failed on an exchange: the step, its error's code and what failed. */
export interface FailedStepDto {
  flowId: string
  /** The step's id (`consent`, `domestic-payment`...). */
  step: string
  code: ErrorCode
  /** What failed, as the step's error says it (masked as flow states are). */
  what: string
}

/** One way a bank's answer departs from the official OB v4.0 OpenAPI or from the bank's interface spec. */
export interface ConformanceViolationDto {
  /** Where, as an OB JSON path (`Data.Account[0].OpeningDate`); a header as `header x-fapi-interaction-id`; '' for the whole answer. */
  path: string
  /** The rule's id: `schema.<ajv keyword>` (`schema.format`, `schema.required`...) or a bank rule (`bank.page-size`...). */
  rule: string
  message: string
  /** The value found, short (cut at 80 characters) and never a secret; absent when nothing was there. */
  value?: string
  /** Where the rule is written: `OBReadAccount6 (account-info.json)#/...` or `bank-interface-spec.md §8 Limits`. */
  source: string
}

/** The lens's verdict on one exchange. */
export interface ConformanceDto {
  /** False when the answer is not one the lens checks (not a bank API answer, no JSON body...) or not yet checked; `note` says which. */
  checked: boolean
  /** The operation matched, e.g. `GET /accounts/{AccountId}/transactions (account-info.json)`. */
  operation?: string
  violations: ConformanceViolationDto[]
  note?: string
}

/**
 * A secret found in an exchange or a flow, as the renderer may see it. Tokens, codes and credentials are
 * masked (`eyJhbGci…Xk2nQ0aA`, or `••••••••` when short) and revealable one at a time; private keys are
 * removed (`[private key removed]`) and never revealable.
 */
export interface SecretItemDto {
  /** Opaque handle to ask the main side for this one value (`secrets.reveal`). */
  ref: string
  kind: 'private-key' | 'token' | 'code' | 'credential'
  /** The member, parameter or header it sat under (`access_token`, `authorization`, `code`, `PEM`). */
  name: string
  /** Where: `request headers`, `request body`, `request URL`, `response headers`, `response body`, `step code-exchange`... */
  where: string
  /** What is shown in its place (the value itself once revealed). */
  shown: string
  revealed: boolean
  revealable: boolean
}
