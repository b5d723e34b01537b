// What a thrown value that is not an AppError comes to. A coded error object (code, what, cause, fix, the code
// one of the closed list) keeps its sentences; an error of Node's network or file system, of undici or of jose
// gets the code of the list that says what it is; anything else is a bug in the console (INTERNAL).
import {
  isErrorCode,
  type AppErrorDto,
  type ErrorCode,
  type ErrorDetails,
  type ErrorProblem,
} from '../contract/errors.ts'

/** A thrown value's code and sentences, as a step or a call reports it: the contract's error DTO. */
export type ThrownError = AppErrorDto

interface Kind {
  code: ErrorCode
  cause: string
  fix: string
}

const NETWORK_FIX = 'Check the address and that the server runs, then run it again.'
const FILE_FIX = "Check the file's path and its permissions, then run it again."
const JWT_FIX = 'See the token or key named; the exchange log holds the answer it came in.'

/** Node's system errors (`err.code`), undici's and jose's, by code. */
const BY_CODE: Record<string, Kind> = {
  ECONNREFUSED: { code: 'CONNECTION_REFUSED', cause: 'nothing listens on that port', fix: NETWORK_FIX },
  ENOTFOUND: { code: 'DNS_NOT_FOUND', cause: 'the host name does not resolve', fix: NETWORK_FIX },
  EAI_AGAIN: { code: 'DNS_NOT_FOUND', cause: 'the host name could not be resolved now', fix: NETWORK_FIX },
  ECONNRESET: { code: 'CONNECTION_RESET', cause: 'the other side closed the connection', fix: NETWORK_FIX },
  EPIPE: { code: 'CONNECTION_RESET', cause: 'the other side closed the connection', fix: NETWORK_FIX },
  UND_ERR_SOCKET: { code: 'CONNECTION_RESET', cause: 'the other side closed the connection', fix: NETWORK_FIX },
  ETIMEDOUT: { code: 'TIMEOUT', cause: 'the connection timed out', fix: NETWORK_FIX },
  UND_ERR_CONNECT_TIMEOUT: { code: 'TIMEOUT', cause: 'connecting timed out', fix: NETWORK_FIX },
  UND_ERR_HEADERS_TIMEOUT: { code: 'TIMEOUT', cause: 'the answer did not start in time', fix: NETWORK_FIX },
  UND_ERR_BODY_TIMEOUT: { code: 'TIMEOUT', cause: 'the answer stopped coming', fix: NETWORK_FIX },
  EHOSTUNREACH: { code: 'NETWORK_ERROR', cause: 'the host cannot be reached', fix: NETWORK_FIX },
  ENETUNREACH: { code: 'NETWORK_ERROR', cause: 'the network cannot be reached', fix: NETWORK_FIX },
  ENOENT: { code: 'STORE_ERROR', cause: 'a file or folder it needs does not exist', fix: FILE_FIX },
  EACCES: { code: 'STORE_ERROR', cause: 'a file or folder is not readable or writable by this user', fix: FILE_FIX },
  EPERM: { code: 'STORE_ERROR', cause: 'the system refused the file operation', fix: FILE_FIX },
  ENOSPC: { code: 'STORE_ERROR', cause: 'the disk is full', fix: 'Free some disk space, then run it again.' },
  EROFS: { code: 'STORE_ERROR', cause: 'the file system is read-only', fix: FILE_FIX },
  EISDIR: { code: 'STORE_ERROR', cause: 'a folder is where a file was expected', fix: FILE_FIX },
  ENOTDIR: { code: 'STORE_ERROR', cause: 'a file is where a folder was expected', fix: FILE_FIX },
  EEXIST: { code: 'STORE_ERROR', cause: 'a file is already where a folder was to be made', fix: FILE_FIX },
  ERR_JWS_SIGNATURE_VERIFICATION_FAILED: {
    code: 'SIGNATURE_INVALID',
    cause: 'a signature does not verify',
    fix: JWT_FIX,
  },
  ERR_JWT_CLAIM_VALIDATION_FAILED: { code: 'CLAIMS_INVALID', cause: 'a claim of a token is not valid', fix: JWT_FIX },
  ERR_JWT_EXPIRED: { code: 'CLAIMS_INVALID', cause: 'a token has expired', fix: JWT_FIX },
  ERR_JWS_INVALID: { code: 'JWT_MALFORMED', cause: 'a JWS is not well formed', fix: JWT_FIX },
  ERR_JWT_INVALID: { code: 'JWT_MALFORMED', cause: 'a JWT is not well formed', fix: JWT_FIX },
  ERR_JWE_INVALID: { code: 'JWT_MALFORMED', cause: 'a JWE is not well formed', fix: JWT_FIX },
  ERR_JOSE_NOT_SUPPORTED: { code: 'KEY_UNSUPPORTED', cause: 'an algorithm or key type is not supported', fix: JWT_FIX },
  ERR_JOSE_ALG_NOT_ALLOWED: { code: 'KEY_UNSUPPORTED', cause: 'an algorithm is not allowed here', fix: JWT_FIX },
  ERR_JWKS_NO_MATCHING_KEY: { code: 'KEY_MISMATCH', cause: 'no key of the JWKS matches the token', fix: JWT_FIX },
  ERR_JWKS_MULTIPLE_MATCHING_KEYS: { code: 'KEY_MISMATCH', cause: 'several keys of the JWKS match', fix: JWT_FIX },
  ERR_JWKS_INVALID: { code: 'KEY_INVALID', cause: 'the JWKS is not a valid key set', fix: JWT_FIX },
  ERR_JWKS_TIMEOUT: { code: 'TIMEOUT', cause: 'fetching the JWKS timed out', fix: NETWORK_FIX },
}

/** By error name, when there is no code (an aborted or timed-out fetch, `AbortSignal.timeout`). */
const BY_NAME: Record<string, Kind> = {
  TimeoutError: { code: 'TIMEOUT', cause: 'the operation timed out', fix: NETWORK_FIX },
  AbortError: { code: 'TIMEOUT', cause: 'the operation was stopped before it ended', fix: 'Run it again.' },
}

const text = (v: unknown): v is string => typeof v === 'string' && v.length > 0

/**
 * The code and sentences of a thrown value, `what` naming what was being done. A coded error object keeps its
 * own; a known system, undici or jose error gets its code; anything else is INTERNAL (a bug).
 *
 * @example codedThrown(connectError, 'Reading the accounts').code // 'CONNECTION_REFUSED'
 */
export function codedThrown(value: unknown, what: string): ThrownError {
  const e = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>
  if (isErrorCode(e.code) && text(e.what) && text(e.cause) && text(e.fix)) {
    const details = e.details && typeof e.details === 'object' ? { ...(e.details as ErrorDetails) } : undefined
    const problems = Array.isArray(e.problems) && e.problems.length ? (e.problems as ErrorProblem[]) : undefined
    return {
      code: e.code,
      what: e.what,
      cause: e.cause,
      fix: e.fix,
      ...(details ? { details } : {}),
      ...(problems ? { problems: problems.map((p) => ({ ...p })) } : {}),
    }
  }
  const message = value instanceof Error ? value.message : String(value)
  const kind = (text(e.code) ? BY_CODE[e.code] : undefined) ?? (text(e.name) ? BY_NAME[e.name] : undefined)
  if (kind) return { code: kind.code, what, cause: `${kind.cause} (${message})`, fix: kind.fix }
  return {
    code: 'INTERNAL',
    what,
    cause: `an unexpected error: ${message}`,
    fix: 'this is a bug in the console; report it with the steps that led to it',
  }
}
