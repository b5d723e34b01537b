import { describe, expect, it } from 'vitest'
import { createSelfSignedCertificate } from '../../../src-main/certificates/generate.ts'
import { ExchangeLog } from '../../../src-main/http/exchange-log.ts'
import { HttpClient } from '../../../src-main/http/http-client.ts'

// Network behaviour is tested against real servers in test/integration/http; these are the decisions
// taken before any connection.
describe('HttpClient', () => {
  it('refuses another origin before connecting, records the refusal, and reports verification', async () => {
    const cert = await createSelfSignedCertificate({ subject: 'CN=x', keyType: 'EC-P256' })
    const log = new ExchangeLog()
    const client = new HttpClient({
      environment: { id: 'e', kind: 'bank-sandbox', origins: ['https://bank.example'], trust: { mode: 'off' } },
      identity: { id: 'i', certPem: cert.certPem, keyPem: cert.keyPem },
      log,
    })
    expect(client.tlsVerification).toBe('off')
    await expect(client.request({ method: 'GET', url: 'https://evil.example/x' })).rejects.toMatchObject({
      code: 'ORIGIN_NOT_ALLOWED',
    })
    expect(log.list()[0]).toMatchObject({ error: { code: 'ORIGIN_NOT_ALLOWED' }, presentedCertificate: null })
    await expect(client.request({ method: 'GET', url: 'not a url' })).rejects.toMatchObject({ code: 'INVALID_INPUT' })
    await client.close()
    await expect(client.request({ method: 'GET', url: 'https://bank.example/x' })).rejects.toMatchObject({
      code: 'INTERNAL',
    })
  })

  it('refuses a production environment with TLS verification off', () => {
    expect(
      () =>
        new HttpClient({
          environment: { id: 'p', kind: 'production', origins: ['https://bank.example'], trust: { mode: 'off' } },
        }),
    ).toThrow(/production environment with TLS verification off/)
  })

  it('compares origins normalised: case, path and explicit default port do not matter', async () => {
    const client = new HttpClient({
      environment: {
        id: 'e',
        kind: 'production',
        origins: ['HTTPS://127.0.0.1:1/some/path'],
        trust: { mode: 'system' },
      },
    })
    expect(client.tlsVerification).toBe('on')
    // Allowed, so it is sent, and fails at connecting (nothing listens on port 1), not at the allow-list.
    await expect(client.request({ method: 'GET', url: 'https://127.0.0.1:1/x' })).rejects.toMatchObject({
      code: 'CONNECTION_REFUSED',
    })
    await client.close()
  })
})
