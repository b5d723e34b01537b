import type { EnvironmentKind } from '../contract/environment.ts'
import { AppError } from '../core/app-error.ts'
import type { ConnectionInfo } from './connection-tracker.ts'

/** What the classifier knows besides the error itself. */
export interface FailureContext {
  method: string
  url: string
  environmentKind: EnvironmentKind
  /** A client certificate was configured for this request. */
  clientCertificate: boolean
  tlsVerification: 'on' | 'off'
  /** The connection this request used, when one was (being) opened. */
  connection?: ConnectionInfo
  /** The connection was opened for this request (not reused from keep-alive). */
  freshConnection: boolean
  /**
   * This server answered a request made with this client certificate earlier: a close right after a later
   * handshake is then a dropped request, not a refusal of the certificate.
   */
  certificateAcceptedBefore?: boolean
  /** Milliseconds the request was allowed, per phase. */
  timeouts: { connectMs: number; headersMs: number; bodyMs: number; totalMs?: number }
  /** The status and headers had arrived when the connection failed: the body was cut short. */
  responseStarted?: boolean
}

/** Node's certificate verification codes that mean "the server certificate is not trusted". */
const UNTRUSTED = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
  'CERT_REJECTED',
  'INVALID_CA',
  'UNABLE_TO_DECRYPT_CERT_SIGNATURE',
  'CERT_CHAIN_TOO_LONG',
  'PATH_LENGTH_EXCEEDED',
])
const EXPIRED = new Set(['CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID'])
/** TLS alerts a server sends when it refuses the client certificate. */
const CLIENT_CERT_ALERTS = new Set([
  'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED',
  'ERR_SSL_TLSV1_ALERT_UNKNOWN_CA',
  'ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE',
  'ERR_SSL_SSLV3_ALERT_CERTIFICATE_EXPIRED',
  'ERR_SSL_SSLV3_ALERT_CERTIFICATE_REVOKED',
  'ERR_SSL_SSLV3_ALERT_UNSUPPORTED_CERTIFICATE',
  'ERR_SSL_SSLV3_ALERT_CERTIFICATE_UNKNOWN',
  'ERR_SSL_TLSV1_ALERT_ACCESS_DENIED',
  'ERR_SSL_TLSV1_ALERT_DECRYPT_ERROR',
])

/**
 * OpenSSL 3.5 (Node 24) names the alerts of the SSLv3 range `ERR_SSL_SSL/TLS_ALERT_*` where OpenSSL 3.0
 * (Node 20) says `ERR_SSL_SSLV3_ALERT_*`: one name for both, so each alert is explained the same way.
 */
function normaliseCode(code: string): string {
  return code.startsWith('ERR_SSL_SSL/TLS_ALERT_')
    ? `ERR_SSL_SSLV3_ALERT_${code.slice('ERR_SSL_SSL/TLS_ALERT_'.length)}`
    : code
}

function codeOf(err: unknown): string | undefined {
  const e = err as { code?: unknown; cause?: { code?: unknown } }
  if (typeof e?.code === 'string') return normaliseCode(e.code)
  if (typeof e?.cause?.code === 'string') return normaliseCode(e.cause.code)
  return undefined
}

function host(url: string): string {
  try {
    return new URL(url).host
  } catch {
    return url
  }
}

function certSource(kind: EnvironmentKind): string {
  if (kind === 'local-sandbox')
    return "the transport certificate and key from the local sandbox's starter kit (transport.pem, transport.key)"
  if (kind === 'bank-sandbox')
    return 'the transport certificate issued for your software statement by the sandbox directory'
  return 'the transport certificate issued for your software statement by the Open Banking directory'
}

function trustFix(kind: EnvironmentKind): string {
  if (kind === 'local-sandbox')
    return "use the local sandbox's CA bundle (ca-bundle.pem in its data directory); if the sandbox's data directory was recreated, download the bundle again"
  if (kind === 'bank-sandbox')
    return 'the bank\'s sandbox is reached with verification off; check that the environment kind is "bank-sandbox"'
  return "check that the URL is the bank's (a proxy or captive portal may be answering); if the bank uses a private CA, add its CA certificate to the environment"
}

/** What to do about an answer whose head is not HTTP/1.1: the same bytes come back on every try. */
const MALFORMED_FIX =
  'nothing in your request causes this, and trying again gets the same bytes: report it to the bank (a gateway or proxy in front of its API writes a broken answer); the exchange log shows the request sent'

/**
 * The llhttp error of undici's HTTPParserError, from its reason: undici 7 builds the error's `code` from a
 * table keyed the other way round, so it is undefined. Undefined for any other error.
 */
function parserCode(err: unknown): string | undefined {
  const e = err as { name?: unknown; message?: unknown }
  if (e?.name !== 'HTTPParserError' || typeof e.message !== 'string') return undefined
  // "Response does not match the HTTP/1.1 protocol (Missing expected CR after response line)": the reason.
  const reason = /\(([^()]*)\)\s*$/.exec(e.message)?.[1] ?? e.message
  if (/expected (CR|LF)|CRLF|bare LF/i.test(reason)) return 'HPE_CR_EXPECTED'
  if (/header (value|field|token)|header name|invalid header/i.test(reason)) return 'HPE_INVALID_HEADER_TOKEN'
  if (/content-length/i.test(reason)) return 'HPE_INVALID_CONTENT_LENGTH'
  if (/chunk|transfer-encoding/i.test(reason)) return 'HPE_INVALID_CHUNK_SIZE'
  if (/status|version|constant|HTTP\//i.test(reason)) return 'HPE_INVALID_STATUS'
  return 'HPE_INTERNAL'
}

/**
 * The cause of an answer whose status line or headers are not HTTP/1.1 (undici's parser refused them), or
 * undefined for another failure. Named from the parser's code, never from its message, which quotes the bytes.
 */
function malformedHead(code: string | undefined, where: string): string | undefined {
  const head = `the answer of ${where} is not valid HTTP/1.1`
  switch (code) {
    case 'UND_ERR_HEADERS_OVERFLOW':
    case 'HPE_HEADER_OVERFLOW':
      return `${where} answered with response headers too large or too many: together they are over the 16 KiB a client reads (a gateway adding headers, or a huge cookie), so the answer was not read`
    case 'HPE_CR_EXPECTED':
    case 'HPE_LF_EXPECTED':
    case 'HPE_STRICT':
      return `${head}: a line of its status line or headers ends in a bare LF (or CR) where HTTP/1.1 ends every line with CR LF (RFC 9112 §2.2)`
    case 'HPE_INVALID_HEADER_TOKEN':
      return `${head}: a response header's name or value holds a byte no header may hold (a control character such as NUL, ESC or a bare CR; RFC 9110 §5.5)`
    case 'HPE_INVALID_STATUS':
    case 'HPE_INVALID_VERSION':
    case 'HPE_INVALID_CONSTANT':
      return `${head}: its first line is not a status line ("HTTP/1.1 200 OK")`
    case 'HPE_INVALID_CONTENT_LENGTH':
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
      return `${head}: its Content-Length is not a number, or is sent twice with different values, or beside Transfer-Encoding (RFC 9112 §6.3)`
    case 'HPE_INVALID_TRANSFER_ENCODING':
    case 'HPE_INVALID_CHUNK_SIZE':
      return `${head}: its chunked body is malformed (Transfer-Encoding)`
    default:
      return code?.startsWith('HPE_') ? `${head} (the HTTP parser's ${code})` : undefined
  }
}

/** What the rules read of a failed request: its codes, its host, its context. */
interface Facts {
  ctx: FailureContext
  err: unknown
  /** The error's code (Node's, undici's or OpenSSL's, alert names made one). */
  code?: string
  /** The TLS alert recorded on the connection, when it differs from the error's. */
  alert?: string
  /** The host (and port) of the URL. */
  where: string
  message: string
}

/** One kind of failure: when it applies, its code, and its cause and fix in the reader's words. */
interface FailureRule {
  when(f: Facts): boolean
  code: ConstructorParameters<typeof AppError>[0]
  cause(f: Facts): string
  fix(f: Facts): string
}

const is =
  (...codes: string[]) =>
  (f: Facts): boolean =>
    f.code !== undefined && codes.includes(f.code)
const errorName = (f: Facts) => (f.err as { name?: string })?.name
const CUT = ['UND_ERR_SOCKET', 'ECONNRESET', 'UND_ERR_CLOSED']

/** The client-certificate alert of the error or of its connection, if either is one. */
const certAlert = (f: Facts) => [f.code, f.alert].find((c) => c && CLIENT_CERT_ALERTS.has(c))
/** A TLS 1.3 server that asked for a client certificate closed a fresh connection before answering anything. */
const closedAfterCertRequest = (f: Facts) =>
  (f.code === 'UND_ERR_SOCKET' || f.code === 'ECONNRESET') &&
  f.ctx.freshConnection &&
  f.ctx.connection?.clientCertRequested === true &&
  ((f.err as { socket?: { bytesRead?: number } }).socket?.bytesRead ?? 0) === 0 &&
  f.ctx.certificateAcceptedBefore !== true
const handshakeFailureWithoutCert = (f: Facts) =>
  (f.code === 'ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE' || f.alert === 'ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE') &&
  !f.ctx.clientCertificate
const certRefused = (f: Facts) => Boolean(certAlert(f)) || closedAfterCertRequest(f) || handshakeFailureWithoutCert(f)

/** How a server said no to the client certificate, in words. */
function refusalWords(f: Facts): string {
  switch (certAlert(f)) {
    case 'ERR_SSL_SSLV3_ALERT_CERTIFICATE_EXPIRED':
      return 'it says the certificate has expired'
    case 'ERR_SSL_SSLV3_ALERT_CERTIFICATE_REVOKED':
      return 'it says the certificate was revoked'
    case 'ERR_SSL_TLSV1_ALERT_UNKNOWN_CA':
      return 'it does not know the CA that issued it'
  }
  return closedAfterCertRequest(f)
    ? 'it closed the connection right after the TLS handshake, before answering (a TLS 1.3 server refusing a client certificate does exactly that)'
    : 'it answered the certificate with a TLS alert'
}

/**
 * The failures a request can meet without an HTTP response, in the order they are tried: the first whose
 * `when` holds names the failure (the TLS refusals first, then the server's certificate, the handshake, DNS,
 * the connection, the timeouts, a cut answer, the network; a malformed answer and the rest are handled last).
 */
const RULES: FailureRule[] = [
  {
    when: (f) => certRefused(f) && !f.ctx.clientCertificate,
    code: 'TLS_CLIENT_CERT_REFUSED',
    cause: (f) => `${f.where} requires mutual TLS and no client certificate was presented`,
    fix: (f) => `select the transport identity for this environment: ${certSource(f.ctx.environmentKind)}`,
  },
  {
    when: certRefused,
    code: 'TLS_CLIENT_CERT_REFUSED',
    cause: (f) =>
      `${f.where} refused the client certificate: ${refusalWords(f)}; usually the certificate is not issued by a CA this environment trusts, has expired, or belongs to another environment`,
    fix: (f) =>
      `use ${certSource(f.ctx.environmentKind)}, check it has not expired, and check the environment (sandbox and production certificates differ)`,
  },
  {
    when: is('ERR_TLS_CERT_ALTNAME_INVALID'),
    code: 'TLS_HOSTNAME_MISMATCH',
    cause: (f) =>
      `the server certificate of ${f.where} is not issued for that host name (${f.message.replace(/^Hostname\/IP does not match certificate's altnames: /, '')})`,
    fix: () =>
      'use the host name the bank documents (not an IP address or an alias), or check that DNS points at the bank',
  },
  {
    when: (f) => f.code !== undefined && EXPIRED.has(f.code),
    code: 'TLS_SERVER_CERT_EXPIRED',
    cause: (f) =>
      f.code === 'CERT_HAS_EXPIRED'
        ? `the server certificate of ${f.where} has expired`
        : `the server certificate of ${f.where} is not valid yet`,
    fix: () =>
      "check this computer's date and time; if it is right, the bank's certificate is out of date: tell the bank",
  },
  {
    when: (f) => f.code !== undefined && UNTRUSTED.has(f.code),
    code: 'TLS_SERVER_UNTRUSTED',
    cause: (f) =>
      `the server certificate of ${f.where} cannot be verified: ${f.code!.includes('SELF_SIGNED') ? 'it is self-signed or issued by a CA this environment does not trust' : 'it is not issued by a CA this environment trusts'} (${f.code})`,
    fix: (f) => trustFix(f.ctx.environmentKind),
  },
  {
    when: is('ERR_SSL_WRONG_VERSION_NUMBER', 'ERR_SSL_PACKET_LENGTH_TOO_LONG'),
    code: 'TLS_HANDSHAKE_FAILED',
    cause: (f) => `${f.where} did not answer with TLS: the port probably speaks plain HTTP or another protocol`,
    fix: () => 'check the scheme and port of the URL (https:// and the TLS port of the bank)',
  },
  {
    when: (f) => Boolean(f.code?.startsWith('ERR_SSL_')) || is('EPROTO', 'ERR_TLS_HANDSHAKE_TIMEOUT')(f),
    code: 'TLS_HANDSHAKE_FAILED',
    cause: (f) =>
      `the TLS handshake with ${f.where} failed (${f.code}): no TLS version or cipher in common, or the server refused the connection during the handshake`,
    fix: () =>
      'check that the URL is right and that the server supports TLS 1.2 or 1.3; if it asks for a client certificate, check the one configured',
  },
  {
    when: is('ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME'),
    code: 'DNS_NOT_FOUND',
    cause: (f) =>
      f.code === 'EAI_AGAIN'
        ? `the name ${f.where} could not be resolved right now (DNS did not answer)`
        : `the host name ${f.where} does not exist in DNS`,
    fix: () => 'check the spelling of the host in the environment settings, and the network connection (VPN, proxy)',
  },
  {
    when: is('ECONNREFUSED'),
    code: 'CONNECTION_REFUSED',
    cause: (f) => `nothing is listening on ${f.where}`,
    fix: (f) =>
      f.ctx.environmentKind === 'local-sandbox'
        ? 'start the local sandbox (ob-console sandbox) and check the port in the environment matches the one it printed'
        : 'check the port of the URL and that the server is up',
  },
  {
    when: is('UND_ERR_CONNECT_TIMEOUT', 'ETIMEDOUT'),
    code: 'TIMEOUT',
    cause: (f) => `connecting to ${f.where} took longer than ${f.ctx.timeouts.connectMs} ms`,
    fix: () => 'check the network path to the bank (firewall, VPN, proxy) and that the host and port are right',
  },
  {
    when: is('UND_ERR_HEADERS_TIMEOUT'),
    code: 'TIMEOUT',
    cause: (f) => `${f.where} accepted the request but sent no response headers within ${f.ctx.timeouts.headersMs} ms`,
    fix: () =>
      'retry later, or raise the timeout if this endpoint is known to be slow; a payment may still have been created: check its status before sending it again',
  },
  {
    when: is('UND_ERR_BODY_TIMEOUT'),
    code: 'TIMEOUT',
    cause: (f) => `${f.where} started answering but the body stalled for more than ${f.ctx.timeouts.bodyMs} ms`,
    fix: () => 'retry later; if it keeps happening, report it to the bank with the x-fapi-interaction-id',
  },
  {
    when: (f) => errorName(f) === 'TimeoutError' || errorName(f) === 'AbortError',
    code: 'TIMEOUT',
    cause: (f) => `the request to ${f.where} did not complete within ${f.ctx.timeouts.totalMs ?? '?'} ms`,
    fix: () => 'retry later, or raise the timeout for this request',
  },
  {
    when: (f) => is(...CUT)(f) && f.ctx.responseStarted === true,
    code: 'CONNECTION_RESET',
    cause: (f) =>
      `${f.where} sent the status and headers, then closed the connection before the body was complete: the answer is cut short (a gateway or the bank's server dropped it mid-way)`,
    fix: () =>
      'retry; a consent or payment may have been created: read it before sending the request again. If it keeps happening, report it to the bank with the x-fapi-interaction-id',
  },
  {
    when: is(...CUT, 'EPIPE'),
    code: 'CONNECTION_RESET',
    cause: (f) =>
      `${f.where} closed the connection before sending a response${f.ctx.freshConnection ? '' : ' (on a kept-alive connection)'}`,
    fix: (f) =>
      f.ctx.freshConnection
        ? 'retry; if it persists the server may be overloaded, or a proxy or firewall may cut the connection'
        : 'retry: the server probably closed an idle connection; the next request opens a new one',
  },
  {
    when: is('EHOSTUNREACH', 'ENETUNREACH', 'ENETDOWN', 'EADDRNOTAVAIL'),
    code: 'NETWORK_ERROR',
    cause: (f) => `${f.where} cannot be reached from this computer (${f.code})`,
    fix: () => 'check the network connection, VPN and routing',
  },
]

/**
 * Turns a failed request (no HTTP response) into an AppError of the closed set, with what failed, the
 * likely cause and the fix: the first rule of RULES that applies (TLS refusals of the client certificate,
 * also when a TLS 1.3 server just closes the connection after asking for one; untrusted or expired server
 * certificates, hostname mismatches, DNS, refused and reset connections, timeouts), else a malformed
 * answer, else a network error quoting the message.
 *
 * @example throw classifyRequestError(err, { method: 'POST', url, environmentKind: 'production', ... })
 */
export function classifyRequestError(err: unknown, ctx: FailureContext): AppError {
  const code = codeOf(err)
  const alert = codeOf(ctx.connection?.error)
  const facts: Facts = {
    ctx,
    err,
    ...(code ? { code } : {}),
    ...(alert ? { alert } : {}),
    where: host(ctx.url),
    message: err instanceof Error ? err.message : String(err),
  }
  const details = {
    url: ctx.url,
    ...(code ? { errorCode: code } : {}),
    ...(alert && alert !== code ? { tlsAlert: alert } : {}),
  }
  const make = (c: FailureRule['code'], cause: string, fix: string) =>
    new AppError(c, { what: `${ctx.method} ${ctx.url} failed`, cause, fix, details, source: err })
  const rule = RULES.find((r) => r.when(facts))
  if (rule) return make(rule.code, rule.cause(facts), rule.fix(facts))
  const malformed = malformedHead(code ?? parserCode(err), facts.where)
  if (malformed) return make('BANK_ANSWER_INVALID', malformed, MALFORMED_FIX)
  return make(
    'NETWORK_ERROR',
    `the request could not be completed: ${facts.message}${code ? ` (${code})` : ''}`,
    'retry; if it persists, report it with the exchange from the inspector',
  )
}
