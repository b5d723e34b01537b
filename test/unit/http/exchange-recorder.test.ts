import { describe, expect, it } from 'vitest'
import { AppError } from '../../../src-main/core/app-error.ts'
import type { ConnectionInfo } from '../../../src-main/http/connection-tracker.ts'
import { ExchangeLog } from '../../../src-main/http/exchange-log.ts'
import { ExchangeRecorder, withExchangeId, type ClientExchange } from '../../../src-main/http/exchange-recorder.ts'
import type { HttpRequest } from '../../../src-main/http/http-message.ts'

const environment = {
  id: 'env-1',
  kind: 'bank-sandbox' as const,
  origins: ['https://bank.example'],
  trust: { mode: 'off' as const },
}
const identity = { id: 'transport-1', certPem: 'cert', keyPem: 'key' }
const presented = { subjectDn: 'CN=SoftwareId123', thumbprint: 'tp' }
const timings = { connect: 1, tls: 2, firstByte: 3, total: 4 }
const conn: ConnectionInfo = {
  origin: 'https://bank.example:443',
  startedAt: 0,
  clientCertRequested: true,
  protocol: 'TLSv1.3',
  cipher: 'TLS_AES_128_GCM_SHA256',
  unverifiedReason: 'self-signed certificate',
  sessionResumed: false,
}
const startedAt = new Date('2026-01-01T00:00:00Z')
/** A failed exchange over `conn` (overrides change any part). */
const failedExchange = (req: HttpRequest, overrides: Partial<ClientExchange> = {}): ClientExchange => ({
  req,
  body: undefined,
  startedAt,
  timings,
  reused: false,
  conn,
  withCert: true,
  response: undefined,
  error: failed(),
  ...overrides,
})
const failed = () => new AppError('CONNECTION_RESET', { what: 'w', cause: 'c', fix: 'f', details: { a: 1 } })

describe('exchange-recorder', () => {
  it('records a completed exchange a moment later and a failed one at once, telling the request each id', async () => {
    const log = new ExchangeLog()
    const recorder = new ExchangeRecorder(log, environment, identity, presented, 'off')
    const ids: string[] = []
    const req: HttpRequest = {
      method: 'POST',
      url: 'https://bank.example/token',
      label: 'token',
      onExchange: (id) => ids.push(id),
    }
    const response = {
      status: 200,
      headers: [['content-type', 'text/plain']] as Array<[string, string]>,
      body: Buffer.from('ok'),
    }
    const done = recorder.record({
      ...failedExchange(req),
      body: Buffer.from('a=1'),
      reused: true,
      response,
      error: undefined,
    })!
    expect(log.list({ raw: true })).toHaveLength(1) // a read makes what is queued
    const fail = recorder.record(failedExchange(req))!
    expect(ids).toEqual([done, fail])
    const view = log.get(done, { raw: true })
    expect(view).toMatchObject({
      environmentId: 'env-1',
      identityId: 'transport-1',
      label: 'token',
      reusedConnection: true,
      presentedCertificate: { subjectDn: 'CN=SoftwareId123', thumbprint: 'tp', sent: true },
      tls: {
        verification: 'off',
        clientCertificateRequested: true,
        protocol: 'TLSv1.3',
        cipher: 'TLS_AES_128_GCM_SHA256',
        unverifiedReason: 'self-signed certificate',
        sessionResumed: false,
      },
      request: { body: { text: 'a=1' } },
      response: { status: 200, body: { text: 'ok' } },
    })
    expect(log.get(fail, { raw: true }).error).toMatchObject({ code: 'CONNECTION_RESET' })
  })

  it('shows the certificate only on exchanges that offered it, TLS facts only over https, the reason only when unverified', () => {
    const log = new ExchangeLog()
    const verified = new ExchangeRecorder(log, environment, identity, presented, 'on')
    const plain = verified.record(failedExchange({ method: 'GET', url: 'http://127.0.0.1/x' }, { withCert: false }))!
    expect(log.get(plain, { raw: true })).toMatchObject({ presentedCertificate: null })
    expect(log.get(plain, { raw: true })).not.toHaveProperty('tls')
    const secure = verified.record(failedExchange({ method: 'GET', url: 'https://bank.example/x' }))!
    expect(log.get(secure, { raw: true }).tls).not.toHaveProperty('unverifiedReason')
  })

  it('records nothing without a log, and gives a failed exchange’s error the id it was logged as', () => {
    const recorder = new ExchangeRecorder(undefined, environment, undefined, undefined, 'off')
    expect(
      recorder.record(
        failedExchange({ method: 'GET', url: 'https://bank.example/x' }, { conn: undefined, withCert: false }),
      ),
    ).toBeUndefined()
    const error = failed()
    expect(withExchangeId(error, undefined)).toBe(error)
    const tagged = withExchangeId(error, 'ex-1')
    expect(tagged).toMatchObject({
      code: 'CONNECTION_RESET',
      what: 'w',
      cause: 'c',
      fix: 'f',
      details: { a: 1, exchangeId: 'ex-1' },
    })
  })
})
