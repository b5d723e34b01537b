// What the inspector explains of one exchange: its diagnosis (the coded explanation the flows give, with the
// spec text it rests on) and the checks of every JWT it carries, each against the key and rules of its role.
import type { CheckResult } from './checks.ts'
import type { AppErrorDto } from './errors.ts'

/** A place in a specification: the document, the section, and where to read it when it is public. */
export interface SpecReferenceDto {
  /** `OB Read/Write Data API Profile v4.0`, `RFC 6749`, `Bank interface spec`… */
  document: string
  /** `Error Response Structure`, `§5.2 Error Response`… */
  section: string
  url?: string
}

/**
 * The diagnosis of one exchange, made on the main side when it is read. `ok`: it answered as a call of its
 * kind should (2xx, or a redirect that carries no OAuth error). `failed`: no answer, an error status, or a
 * redirect carrying `error=`; `error` is the coded explanation (code, what, cause, fix, and each Open Banking
 * `Errors[]` entry explained in `problems`), `spec` the sections it rests on.
 */
export interface ExchangeDiagnosisDto {
  outcome: 'ok' | 'failed'
  /** One sentence: `200 OK: the bank answered as asked.`, `401: the access token was refused (invalid_token).` */
  summary: string
  error?: AppErrorDto
  spec: SpecReferenceDto[]
}

/** The role a JWT plays in an exchange, guessed from where it sat. */
export type JwtRole =
  | 'registration'
  | 'software-statement'
  | 'request-object'
  | 'client-assertion'
  | 'id-token'
  | 'tpp-jws-signature'
  | 'bank-jws-signature'
  | 'access-token'
  | 'unknown'

/** The checks of one JWT of an exchange (`index` into `ExchangeDto.jwts`). */
export interface JwtCheckReportDto {
  index: number
  location: string
  role: JwtRole
  /** The role in words and why: `request object: the request parameter of the authorisation URL`. */
  roleLabel: string
  /** The key the signature was checked against: `the TPP's signing key (kid abc)`, `the bank's JWKS at https://…`. */
  keySource: string
  /** The rule set applied (`registration`, `request-object`, `id-token`, `client-assertion`, `software-statement`, `x-jws-signature`, `none`). */
  rules: string
  /** Signature first, then the rules; times judged at the moment the exchange was made. */
  checks: CheckResult[]
  /** Set when the checks could not be made (the keys could not be read): what failed, why, what to do. */
  error?: AppErrorDto
}

/** `exchanges.checkJwts`: every JWT of one exchange checked. */
export interface ExchangeJwtChecksDto {
  exchangeId: string
  reports: JwtCheckReportDto[]
}
