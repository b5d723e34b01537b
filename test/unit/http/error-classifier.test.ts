import { describe, expect, it } from 'vitest'
import { classifyRequestError, type FailureContext } from '../../../src-main/http/error-classifier.ts'
import type { ConnectionInfo } from '../../../src-main/http/connection-tracker.ts'

const ctx = (over: Partial<FailureContext> = {}): FailureContext => ({
  method: 'POST',
  url: 'https://bank.example:8443/token',
  environmentKind: 'production',
  clientCertificate: true,
  tlsVerification: 'on',
  freshConnection: true,
  timeouts: { connectMs: 10000, headersMs: 30000, bodyMs: 30000 },
  ...over,
})
const err = (code: string, message = code, extra: Record<string, unknown> = {}) =>
  Object.assign(new Error(message), { code, ...extra })
const conn = (over: Partial<ConnectionInfo> = {}): ConnectionInfo => ({
  origin: 'https://bank.example:8443',
  startedAt: 0,
  clientCertRequested: false,
  ...over,
})

describe('classifyRequestError', () => {
  it('maps TLS alerts about the client certificate to TLS_CLIENT_CERT_REFUSED', () => {
    for (const code of [
      'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED',
      'ERR_SSL_TLSV1_ALERT_UNKNOWN_CA',
      'ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE',
      'ERR_SSL_SSLV3_ALERT_CERTIFICATE_EXPIRED',
    ]) {
      expect(classifyRequestError(err(code), ctx()).code, code).toBe('TLS_CLIENT_CERT_REFUSED')
    }
    const expired = classifyRequestError(err('ERR_SSL_SSLV3_ALERT_CERTIFICATE_EXPIRED'), ctx())
    expect(expired.cause).toMatch(/says the certificate has expired/)
    // An alert seen on the socket while undici reports a closed socket.
    expect(
      classifyRequestError(
        err('UND_ERR_SOCKET', 'other side closed'),
        ctx({ connection: conn({ error: err('ERR_SSL_TLSV1_ALERT_UNKNOWN_CA') }) }),
      ).code,
    ).toBe('TLS_CLIENT_CERT_REFUSED')
  })

  it('reads a fresh connection closed with nothing read, after the server asked for a certificate, as a refusal', () => {
    const closed = err('UND_ERR_SOCKET', 'other side closed', { socket: { bytesRead: 0 } })
    expect(classifyRequestError(closed, ctx({ connection: conn({ clientCertRequested: true }) })).code).toBe(
      'TLS_CLIENT_CERT_REFUSED',
    )
    // Not when the server did not ask, nor on a reused connection, nor when it had answered something, nor
    // when it accepted this certificate before (then the close is a dropped request).
    expect(
      classifyRequestError(
        closed,
        ctx({ connection: conn({ clientCertRequested: true }), certificateAcceptedBefore: true }),
      ).code,
    ).toBe('CONNECTION_RESET')
    expect(classifyRequestError(closed, ctx({ connection: conn() })).code).toBe('CONNECTION_RESET')
    expect(
      classifyRequestError(closed, ctx({ connection: conn({ clientCertRequested: true }), freshConnection: false }))
        .code,
    ).toBe('CONNECTION_RESET')
    expect(
      classifyRequestError(
        err('UND_ERR_SOCKET', 'x', { socket: { bytesRead: 10 } }),
        ctx({ connection: conn({ clientCertRequested: true }) }),
      ).code,
    ).toBe('CONNECTION_RESET')
  })

  it('says no certificate was presented when none was configured, with a fix per environment kind', () => {
    const local = classifyRequestError(
      err('ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED'),
      ctx({ clientCertificate: false, environmentKind: 'local-sandbox' }),
    )
    expect(local.cause).toMatch(/no client certificate was presented/)
    expect(local.fix).toMatch(/starter kit/)
    expect(
      classifyRequestError(err('ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE'), ctx({ clientCertificate: false })).code,
    ).toBe('TLS_CLIENT_CERT_REFUSED')
    expect(classifyRequestError(err('ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE'), ctx()).code).toBe('TLS_HANDSHAKE_FAILED')
  })

  it('maps server certificate problems', () => {
    expect(classifyRequestError(err('SELF_SIGNED_CERT_IN_CHAIN'), ctx()).code).toBe('TLS_SERVER_UNTRUSTED')
    expect(
      classifyRequestError(err('UNABLE_TO_VERIFY_LEAF_SIGNATURE'), ctx({ environmentKind: 'local-sandbox' })).fix,
    ).toMatch(/CA bundle/)
    expect(classifyRequestError(err('CERT_HAS_EXPIRED'), ctx()).code).toBe('TLS_SERVER_CERT_EXPIRED')
    expect(classifyRequestError(err('CERT_NOT_YET_VALID'), ctx()).cause).toMatch(/not valid yet/)
    expect(
      classifyRequestError(
        err(
          'ERR_TLS_CERT_ALTNAME_INVALID',
          "Hostname/IP does not match certificate's altnames: Host: x. is not in the cert's altnames: DNS:y",
        ),
        ctx(),
      ).code,
    ).toBe('TLS_HOSTNAME_MISMATCH')
    expect(classifyRequestError(err('ERR_SSL_WRONG_VERSION_NUMBER'), ctx()).cause).toMatch(/plain HTTP/)
    expect(classifyRequestError(err('ERR_SSL_NO_PROTOCOLS_AVAILABLE'), ctx()).code).toBe('TLS_HANDSHAKE_FAILED')
  })

  it('maps network failures and timeouts, naming the phase and the limit', () => {
    expect(classifyRequestError(err('ENOTFOUND'), ctx()).code).toBe('DNS_NOT_FOUND')
    expect(classifyRequestError(err('EAI_AGAIN'), ctx()).cause).toMatch(/could not be resolved right now/)
    expect(classifyRequestError(err('ECONNREFUSED'), ctx()).code).toBe('CONNECTION_REFUSED')
    expect(classifyRequestError(err('ECONNRESET'), ctx({ freshConnection: false })).fix).toMatch(/idle connection/)
    expect(classifyRequestError(err('UND_ERR_CONNECT_TIMEOUT'), ctx()).cause).toMatch(
      /connecting to bank.example:8443 took longer than 10000 ms/,
    )
    expect(classifyRequestError(err('UND_ERR_HEADERS_TIMEOUT'), ctx()).fix).toMatch(
      /payment may still have been created/,
    )
    expect(classifyRequestError(err('UND_ERR_BODY_TIMEOUT'), ctx()).code).toBe('TIMEOUT')
    const abort = Object.assign(new Error('aborted'), { name: 'TimeoutError' })
    expect(
      classifyRequestError(abort, ctx({ timeouts: { connectMs: 1, headersMs: 1, bodyMs: 1, totalMs: 500 } })).cause,
    ).toMatch(/within 500 ms/)
    expect(classifyRequestError(err('EHOSTUNREACH'), ctx()).code).toBe('NETWORK_ERROR')
    const unknown = classifyRequestError(new Error('weird'), ctx())
    expect(unknown.code).toBe('NETWORK_ERROR')
    expect(unknown.details).toMatchObject({ url: 'https://bank.example:8443/token' })
  })
})

describe('classifyRequestError: an answer whose head is not HTTP/1.1', () => {
  // undici's HTTPParserError: its code is left undefined, its reason is in the message.
  const parser = (reason: string) =>
    Object.assign(new Error(`Response does not match the HTTP/1.1 protocol (${reason})`), { name: 'HTTPParserError' })

  it('names headers too large, a bare LF and a control character, with no "retry"', () => {
    const overflow = classifyRequestError(err('UND_ERR_HEADERS_OVERFLOW', 'Headers Overflow Error'), ctx())
    expect(overflow.code).toBe('BANK_ANSWER_INVALID')
    expect(overflow.cause).toMatch(/response headers too large or too many/)
    const lf = classifyRequestError(parser('Missing expected CR after response line'), ctx())
    expect(lf.code).toBe('BANK_ANSWER_INVALID')
    expect(lf.cause).toMatch(/bare LF/)
    const control = classifyRequestError(parser('Invalid header value char'), ctx())
    expect(control.cause).toMatch(/control character/)
    const status = classifyRequestError(parser('Invalid status code'), ctx())
    expect(status.cause).toMatch(/not a status line/)
    for (const e of [overflow, lf, control, status]) expect(e.fix).not.toMatch(/^retry/)
  })

  it('leaves other failures to the network classification', () => {
    expect(classifyRequestError(err('EWHATEVER', 'odd'), ctx()).code).toBe('NETWORK_ERROR')
  })
})
