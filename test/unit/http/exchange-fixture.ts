import type { ExchangeInput } from '../../../src-main/http/exchange-record.ts'

export const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url')
export const assertion = `${b64({ alg: 'PS256', kid: 'k' })}.${b64({ iss: 'client-1', sub: 'client-1' })}.c2lnbmF0dXJl`

/** A token request and its response, with every kind of secret in it. */
export function tokenExchange(overrides: Partial<ExchangeInput> = {}): ExchangeInput {
  return {
    startedAt: new Date('2026-01-01T00:00:00Z'),
    environmentId: 'env-1',
    identityId: 'transport-1',
    label: 'token (client_credentials)',
    request: {
      method: 'POST',
      url: 'https://127.0.0.1:8443/token',
      headers: [
        ['content-type', 'application/x-www-form-urlencoded'],
        ['authorization', 'Basic Y2xpZW50OnNlY3JldA=='],
      ],
      body: Buffer.from(
        `grant_type=client_credentials&scope=accounts&client_assertion_type=urn%3Aietf%3Aparams%3Aoauth%3Aclient-assertion-type%3Ajwt-bearer&client_assertion=${assertion}`,
      ),
    },
    response: {
      status: 200,
      headers: [
        ['content-type', 'application/json'],
        ['x-fapi-interaction-id', 'i-1'],
      ],
      body: Buffer.from(
        JSON.stringify({
          access_token: 'opaque-access-token',
          token_type: 'Bearer',
          expires_in: 3600,
          scope: 'accounts',
        }),
      ),
    },
    timings: { connect: 1.5, tls: 3.2, firstByte: 4, total: 10 },
    reusedConnection: false,
    presentedCertificate: { subjectDn: 'CN=s,OU=o', thumbprint: 'abc', sent: true },
    tls: { protocol: 'TLSv1.3', verification: 'on', clientCertificateRequested: true },
    ...overrides,
  }
}
