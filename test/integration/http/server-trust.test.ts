import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isAppError } from '../../../src-main/core/app-error.ts'
import { ExchangeLog } from '../../../src-main/http/exchange-log.ts'
import { HttpClient } from '../../../src-main/http/http-client.ts'
import { defaultTrust, type HttpEnvironment } from '../../../src-main/http/environment.ts'
import { createTestPki, startHttpsServer, type RunningServer, type TestPki } from './tls-fixture.ts'

let pki: TestPki
let foreign: RunningServer
let expired: RunningServer
let otherHost: RunningServer
const clients: HttpClient[] = []

beforeAll(async () => {
  pki = await createTestPki()
  foreign = await startHttpsServer({ key: pki.foreignServer.keyPem, cert: pki.foreignServer.certPem })
  expired = await startHttpsServer({ key: pki.expiredServer.keyPem, cert: pki.expiredServer.certPem })
  otherHost = await startHttpsServer({ key: pki.otherHostServer.keyPem, cert: pki.otherHostServer.certPem })
})
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()))
  await Promise.all([foreign, expired, otherHost].map((s) => s?.close()))
})

function client(server: RunningServer, kind: HttpEnvironment['kind'], log = new ExchangeLog()): HttpClient {
  const c = new HttpClient({
    environment: {
      id: kind,
      kind,
      origins: [server.url],
      trust: defaultTrust(kind, kind === 'bank-sandbox' ? undefined : pki.ca.certPem),
    },
    log,
  })
  clients.push(c)
  return c
}

async function failure(p: Promise<unknown>) {
  try {
    await p
  } catch (err) {
    if (isAppError(err)) return err
    throw err
  }
  throw new Error('expected the request to fail')
}

describe('server certificate trust against real servers', () => {
  it('refuses a server whose certificate comes from a CA the environment does not trust', async () => {
    for (const kind of ['local-sandbox', 'production'] as const) {
      const err = await failure(client(foreign, kind).request({ method: 'GET', url: `${foreign.url}/` }))
      expect(err.code).toBe('TLS_SERVER_UNTRUSTED')
      expect(err.cause).toMatch(/cannot be verified/)
    }
  })

  it("reaches the bank's sandbox with verification off, and records that on the exchange with what verification would have said", async () => {
    const log = new ExchangeLog()
    const res = await client(foreign, 'bank-sandbox', log).request({ method: 'GET', url: `${foreign.url}/status` })
    expect(res.status).toBe(200)
    const tls = log.list()[0]!.tls!
    expect(tls.verification).toBe('off')
    expect(tls.unverifiedReason).toMatch(/UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED|UNABLE_TO_GET_ISSUER/)
  })

  it('refuses an expired server certificate', async () => {
    const err = await failure(client(expired, 'local-sandbox').request({ method: 'GET', url: `${expired.url}/` }))
    expect(err.code).toBe('TLS_SERVER_CERT_EXPIRED')
  })

  it('refuses a server certificate issued for another host name', async () => {
    const err = await failure(client(otherHost, 'local-sandbox').request({ method: 'GET', url: `${otherHost.url}/` }))
    expect(err.code).toBe('TLS_HOSTNAME_MISMATCH')
    expect(err.cause).toMatch(/not issued for that host name/)
  })
})
