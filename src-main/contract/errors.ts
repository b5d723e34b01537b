// Error codes and the error DTO of the contract, declared here once. Pure TypeScript: the renderer imports
// this file, and so does core (src-main/core/app-error.ts builds the throwable AppError on these types).

/**
 * Every error code the console can report, each with its one-line meaning: a closed set the renderer and a
 * CI job can switch on. Adding a code is one line here; the table in docs/engine.md is generated from this
 * one (`npm run docs:generate`), and `test/unit/contract/error-codes-doc.test.ts` fails while they differ.
 */
export const ERROR_CODE_DESCRIPTIONS = {
  // Transport: TLS
  TLS_CLIENT_CERT_REFUSED:
    'The server refused the client certificate, or none was presented where mutual TLS is required.',
  TLS_SERVER_UNTRUSTED: 'The server certificate does not chain to a CA this environment trusts.',
  TLS_HOSTNAME_MISMATCH: 'The server certificate is not issued for the host name used.',
  TLS_SERVER_CERT_EXPIRED: 'The server certificate has expired (or is not valid yet: check the clock).',
  TLS_HANDSHAKE_FAILED: 'Any other handshake failure (no common protocol or cipher, a port that speaks plain HTTP).',
  // Transport: network
  DNS_NOT_FOUND: 'The host name does not resolve.',
  CONNECTION_REFUSED: 'Nothing listens on the port.',
  CONNECTION_RESET: 'The server closed the connection without answering, or before the body was complete.',
  TIMEOUT:
    'Connecting, waiting for headers, reading the body, the whole request, or the PSU took too long (the phase and limit are named).',
  NETWORK_ERROR: 'Host unreachable, or an unknown network failure.',
  ORIGIN_NOT_ALLOWED: "A request, or a link in an answer, went to an origin outside the environment's.",
  // Protocol answers
  HTTP_ERROR: 'An error status with no recognised body (401 without body, 429, 5xx...), explained.',
  OB_ERROR: 'An Open Banking v4.0 error body (`Errors[]`), every entry explained.',
  DCR_ERROR: 'A dynamic client registration error (`invalid_redirect_uri`...), explained.',
  OAUTH_ERROR: 'An OAuth error (`invalid_client`, `invalid_grant`...), from the body or `WWW-Authenticate`.',
  // The PSU's return from the bank (pasted, loopback, deeplink): each problem its own code, `details.wayOn` the way on
  AUTH_RETURN_ERROR: 'The bank returned the PSU with `error=` (refused, or failed at the bank).',
  AUTH_RETURN_STATE_MISMATCH: "The return's `state` is another request's, or missing.",
  AUTH_RETURN_NO_CODE: 'The return has the right state but no code (or no response at all).',
  AUTH_RETURN_CODE_IN_QUERY: 'The code came in the query where the request asked for the fragment.',
  AUTH_RETURN_OTHER_FLOW: 'The pasted return belongs to another waiting flow (named in `details.otherFlowId`).',
  AUTH_RETURN_NOT_A_URL: 'The pasted text is not a URL.',
  // A grant or client authentication the bank's discovery document does not advertise
  NOT_ADVERTISED: "A grant or client authentication the bank's discovery document does not advertise.",
  BANK_ANSWER_INVALID:
    'A bank answer a flow step cannot read: another success status, an empty body, not JSON, an HTML page, JSON cut short or after a byte order mark, a member missing or of the wrong type, a looping or malformed `Links.Next` (the JSON path, expected and got are named; see [reliability.md](reliability.md)); a body its `Content-Encoding` cannot decode; a status line or header block that is not HTTP/1.1 (headers over 16 KiB, a bare LF, a control character).',
  PAYMENT_STATUS_UNKNOWN:
    'A payment `Status` outside the Open Banking v4.0 list: the status step stops polling at once.',
  BANK_ID_INVALID:
    'An identifier the bank gave (`ConsentId`, `AccountId`, `DomesticPaymentId`) is not of the Open Banking form `^[A-Za-z0-9._:\\-]{1,N}$` (N: 128 for a consent, 40 for an account or a payment, the official schema `maxLength`): the step stops before the id is put in a URL or a request object; the field, the value (control characters escaped) and the pattern are named.',
  RESPONSE_TOO_LARGE:
    'A response body over the cap (50 MiB by default; per environment `maxResponseBodyMiB`, CLI `--max-body-mib`); the exchange keeps its first MiB.',
  // Input and material
  INVALID_INPUT: 'Bad input to a console function (a form field, a flag, a file of the wrong kind).',
  CERTIFICATE_INVALID: 'A certificate that cannot be read, or is not the kind needed.',
  CERTIFICATE_EXPIRED: 'A certificate that has expired, or is not valid yet.',
  CERTIFICATE_CHAIN_INVALID: 'A certificate that does not chain to the CA it should.',
  KEY_INVALID: 'A private or public key that cannot be read.',
  KEY_UNSUPPORTED: 'A key of a type or size the spec does not allow (or an algorithm it does not use).',
  KEY_MISMATCH: "A key that is not the certificate's (or the JWKS's) key.",
  PASSPHRASE_REQUIRED: 'An encrypted key or PKCS#12 file given without its passphrase.',
  PASSPHRASE_WRONG: 'An encrypted key or PKCS#12 file given with the wrong passphrase.',
  SECRET_INLINE: 'An environment file holds a secret inline where it must name a file.',
  // Files and command lines
  FILE_NOT_FOUND: 'A file named on the command line (or chosen) does not exist; the path is named.',
  NOT_A_FILE:
    'A path is not the kind asked for: a folder where a file is read or written, a file where a folder is kept.',
  NOT_WRITABLE: "A folder the console must write into (a data dir, an output file's folder) cannot be written.",
  USAGE: 'A bad command line: the flag is named, with the fix (exit 2); checked before any work.',
  // Tokens and signatures
  JWT_MALFORMED: 'Not a compact JWT (three base64url parts, a JSON header and payload).',
  CLAIMS_INVALID: 'JWT claims that break the spec (issuer, audience, expiry, nonce, hashes...).',
  SIGNATURE_INVALID: 'A signature (a JWT, an `x-jws-signature`) that does not verify.',
  // Flows and the transport of the contract
  FLOW_STEP_NOT_READY: 'A flow step run before the steps whose results it needs.',
  FLOW_CHECK_FAILED: "A step's checks failed (each failed check names the values compared).",
  ACCESS_REFUSED: 'A call to the console from a window or browser tab it does not trust.',
  // Storage and everything else
  NOT_FOUND: 'An unknown id (an exchange, flow, client or environment no longer kept).',
  STORE_ERROR: 'The console could not read or write its storage (permissions, master key, a damaged file).',
  INTERNAL: 'A bug in the console: report it with the steps that led to it.',
} as const satisfies Record<string, string>

export type ErrorCode = keyof typeof ERROR_CODE_DESCRIPTIONS

/** Every error code, in the order of the table. */
export const ERROR_CODES: readonly ErrorCode[] = Object.keys(ERROR_CODE_DESCRIPTIONS) as ErrorCode[]

/** Scalar facts attached to an error (status, URL, field, thumbprint...), for display next to the sentences. */
export type ErrorDetails = Record<string, string | number | boolean | null>

/**
 * An error as it crosses the contract. Every field is a sentence a TPP developer can act on.
 *
 * @example { code: 'TLS_SERVER_UNTRUSTED', what: 'TLS handshake with https://127.0.0.1:8443 failed',
 *   cause: 'the server certificate is not issued by a CA this environment trusts', fix: 'add the ... CA bundle' }
 */
export interface AppErrorDto {
  code: ErrorCode
  /** What failed, e.g. "POST https://bank/token was refused during the TLS handshake". */
  what: string
  /** The likely cause. */
  cause: string
  /** What to do about it. */
  fix: string
  details?: ErrorDetails
  /** Individual problems when one error carries several (Open Banking `Errors[]`, invalid claims...). */
  problems?: ErrorProblem[]
}

/** One of several problems carried by an error: an Open Banking error entry, an invalid claim, a field. */
export interface ErrorProblem {
  /** The OB code (`U002`), OAuth/DCR error (`invalid_client`) or claim/field name. */
  code: string
  message: string
  /** JSON path or claim name the problem is about. */
  path?: string
  /** A plain-words explanation of the code, when the console knows it. */
  explanation?: string
}

/** The answer of every contract call: the value, or an error DTO. Calls never throw across the contract. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: AppErrorDto }

/** True when `value` is one of the known error codes. */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value)
}
