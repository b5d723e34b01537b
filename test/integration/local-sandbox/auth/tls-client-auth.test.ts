import { X509Certificate } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestSandbox, type TestSandbox } from '../support/sandbox-fixture.ts'
import type { TestTpp } from '../support/test-tpp.ts'

/** The transport certificate's subject DN as the sandbox reads it (certificate order, back to front). */
function subjectDn(tpp: TestTpp): string {
  return new X509Certificate(tpp.kit.transportCertPem).subject.split('\n').reverse().join(',')
}

/** A client-credentials request authenticated by tls_client_auth alone: the client id in the form, over `tpp`'s mutual TLS. */
async function tlsClientAuthToken(tpp: TestTpp, clientId: string) {
  const body = new URLSearchParams({
    grant_type: 'client_credentials',
    scope: 'accounts',
    client_id: clientId,
  }).toString()
  return tpp.call('POST', await tpp.tokenEndpoint(), {
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body,
  })
}

describe("the tls_client_auth extension (beyond the bank's spec, off by default)", () => {
  let env: TestSandbox
  let plain: TestSandbox
  let tpp: TestTpp
  let other: TestTpp

  beforeAll(async () => {
    env = await startTestSandbox({ tlsClientAuth: true })
    plain = await startTestSandbox()
    tpp = await env.onboard({ roles: ['AISP'] })
    other = await env.onboard({ roles: ['AISP'] })
  })
  afterAll(async () => {
    await env?.stop()
    await plain?.stop()
  })

  it('is advertised only when asked for', async () => {
    expect((await tpp.discovery()).token_endpoint_auth_methods_supported).toEqual([
      'private_key_jwt',
      'client_secret_basic',
      'tls_client_auth',
    ])
    const plainTpp = await plain.onboard({ roles: ['AISP'] })
    expect((await plainTpp.discovery()).token_endpoint_auth_methods_supported).toEqual([
      'private_key_jwt',
      'client_secret_basic',
    ])
    const refused = await plainTpp.postRegistration(
      await plainTpp.signRegistration(
        plainTpp.registrationClaims({
          token_endpoint_auth_method: 'tls_client_auth',
          tls_client_auth_subject_dn: subjectDn(plainTpp),
        }),
      ),
    )
    expect(refused.status).toBe(400)
    expect(refused.json.error_description).toContain('--tls-client-auth')
  })

  it("registers a client by its transport certificate's subject; the token endpoint takes that certificate, and no other, as its authentication", async () => {
    const noDn = await tpp.postRegistration(
      await tpp.signRegistration(tpp.registrationClaims({ token_endpoint_auth_method: 'tls_client_auth' })),
    )
    expect(noDn.status).toBe(400)
    expect(noDn.json.error_description).toContain('tls_client_auth_subject_dn')
    const wrongDn = await tpp.postRegistration(
      await tpp.signRegistration(
        tpp.registrationClaims({
          token_endpoint_auth_method: 'tls_client_auth',
          tls_client_auth_subject_dn: subjectDn(other),
        }),
      ),
    )
    expect(wrongDn.status).toBe(400)
    expect(wrongDn.json.error_description).toContain('transport certificate of this request')

    const res = await tpp.postRegistration(
      await tpp.signRegistration(
        tpp.registrationClaims({
          token_endpoint_auth_method: 'tls_client_auth',
          tls_client_auth_subject_dn: subjectDn(tpp),
          scope: 'openid accounts',
        }),
      ),
    )
    expect(res.status, res.text).toBe(201)
    expect(res.json).toMatchObject({
      token_endpoint_auth_method: 'tls_client_auth',
      tls_client_auth_subject_dn: subjectDn(tpp),
    })
    expect(res.json.client_secret).toBeUndefined()
    const clientId = res.json.client_id as string

    const token = await tlsClientAuthToken(tpp, clientId)
    expect(token.status).toBe(200)
    expect(token.json).toMatchObject({ token_type: 'Bearer', scope: 'accounts' })
    // Another TPP's certificate, trusted by the sandbox but not the registered subject: not this client.
    const stolen = await tlsClientAuthToken(other, clientId)
    expect(stolen.status).toBe(401)
    expect(stolen.json.error).toBe('invalid_client')
  })
})
