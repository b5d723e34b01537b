import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isAppError } from '../../../src-main/core/app-error.ts'
import { ExchangeLog } from '../../../src-main/http/exchange-log.ts'
import { HttpClient } from '../../../src-main/http/http-client.ts'
import { createTestPki, startHttpsServer, type RunningServer, type TestPki } from './tls-fixture.ts'

let pki: TestPki
let bank: RunningServer
let elsewhere: RunningServer
let client: HttpClient
const log = new ExchangeLog()

beforeAll(async () => {
  pki = await createTestPki()
  // Both servers ask for a client certificate without requiring one, so we can see whether it came.
  const tls = {
    key: pki.server.keyPem,
    cert: pki.server.certPem,
    ca: pki.ca.certPem,
    requestCert: true,
    rejectUnauthorized: false,
  }
  bank = await startHttpsServer(tls)
  elsewhere = await startHttpsServer(tls)
  client = new HttpClient({
    environment: {
      id: 'env',
      kind: 'local-sandbox',
      origins: [bank.url],
      trust: { mode: 'ca-bundle', caPem: pki.ca.certPem },
    },
    identity: { id: 'transport', certPem: pki.client.certPem, keyPem: pki.client.keyPem },
    log,
  })
})
afterAll(async () => {
  await client?.close()
  await Promise.all([bank?.close(), elsewhere?.close()])
})

describe('the client certificate goes to the environment origins only', () => {
  it('sends the certificate to an origin of the environment', async () => {
    await client.request({ method: 'GET', url: `${bank.url}/a` })
    expect(bank.clientCertificates).toEqual(['SoftwareId123'])
  })

  it('refuses a request to another origin before connecting at all', async () => {
    try {
      await client.request({ method: 'GET', url: `${elsewhere.url}/jwks` })
      expect.unreachable()
    } catch (err) {
      expect(isAppError(err) && err.code).toBe('ORIGIN_NOT_ALLOWED')
      expect(isAppError(err) && err.fix).toMatch(/clientCertificate: false/)
    }
    expect(elsewhere.connections).toBe(0)
    expect(log.list().at(-1)!.error?.code).toBe('ORIGIN_NOT_ALLOWED')
  })

  it('sends a request to another origin without the certificate when asked to', async () => {
    const res = await client.request({ method: 'GET', url: `${elsewhere.url}/jwks`, clientCertificate: false })
    expect(res.status).toBe(200)
    expect(elsewhere.clientCertificates).toEqual([''])
    const exchange = log.list().at(-1)!
    expect(exchange.presentedCertificate).toBeNull()
    expect(exchange.tls?.clientCertificateRequested).toBe(true)
  })
})
