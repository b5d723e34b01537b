/**
 * The PIS journey through the real local sandbox: directory onboarding, DCR, token endpoint, headless
 * authorisation by the authorisation server, then PIS, with the lead's independent test TPP client.
 */
import { randomUUID } from 'node:crypto'
import type { JSONWebKeySet } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestSandbox, type TestSandbox } from '../support/sandbox-fixture.ts'
import type { HttpResponse, RegisteredTestClient, TestTpp } from '../support/test-tpp.ts'
import { signDetached, type SignOptions, type TppSigner } from './support/detached-sign.ts'
import { consentBody, paymentBody } from './support/pis-bodies.ts'
import { verifyResponseSignature } from './support/verify-response.ts'

const PIS = '/open-banking/v4.0/pisp'

describe('PIS v4.0 through the real sandbox servers', () => {
  let s: TestSandbox
  let tpp: TestTpp
  let client: RegisteredTestClient
  let signer: TppSigner
  let jwks: JSONWebKeySet

  beforeAll(async () => {
    s = await startTestSandbox()
    tpp = await s.onboard({ roles: ['PISP'] })
    client = await tpp.register({ overrides: { sandbox_profile: 'strict-headless', scope: 'openid payments' } })
    signer = {
      kid: tpp.kit.signingKid,
      privateKey: await tpp.signingKey(),
      iss: `${tpp.kit.orgId}/${tpp.kit.softwareId}`,
    }
    const jwksUri = (await tpp.discovery()).jwks_uri as string
    const res = await tpp.call('GET', jwksUri, { mtls: false })
    expect(res.status).toBe(200)
    jwks = res.json
  })
  afterAll(async () => s?.stop())

  async function post(
    path: string,
    token: string,
    body: string,
    opts: { key?: string; sign?: SignOptions } = {},
  ): Promise<HttpResponse> {
    return tpp.call('POST', `${s.sandbox.baseUrl}${PIS}${path}`, {
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'x-idempotency-key': opts.key ?? randomUUID(),
        'x-jws-signature': signDetached(body, signer, opts.sign),
      },
      body,
    })
  }

  const get = (path: string, token: string) =>
    tpp.call('GET', `${s.sandbox.baseUrl}${PIS}${path}`, { headers: { authorization: `Bearer ${token}` } })

  it('consent, headless authorisation, code exchange, funds, payment, status with the clock, details', async () => {
    const cc = await tpp.clientCredentials(client, 'payments')
    const body = consentBody('20.00')
    const created = await post('/domestic-payment-consents', cc, JSON.stringify(body))
    expect(created.status, created.text).toBe(201)
    // The response signature verifies against the keys the discovery document's jwks_uri serves.
    await verifyResponseSignature(created, jwks)
    const consentId = created.json.Data.ConsentId as string

    const auth = await tpp.authoriseHeadless(client, consentId, 'openid payments')
    expect(auth.code, auth.location).toBeTruthy()
    const exchanged = await tpp.exchangeCode(client, auth.code!)
    expect(exchanged.status, exchanged.text).toBe(200)
    const ac = exchanged.json.access_token as string

    const consent = await get(`/domestic-payment-consents/${consentId}`, cc)
    expect(consent.json.Data.Status).toBe('AUTH')
    expect(consent.json.Data.Debtor.Name).toBe('Amelia Hughes')

    const funds = await get(`/domestic-payment-consents/${consentId}/funds-confirmation`, ac)
    expect(funds.status, funds.text).toBe(200)
    expect(funds.json.Data.FundsAvailableResult.FundsAvailable).toBe(true)
    await verifyResponseSignature(funds, jwks)

    const paid = await post('/domestic-payments', ac, JSON.stringify(paymentBody(consentId, body)))
    expect(paid.status, paid.text).toBe(201)
    expect(paid.json.Data.Status).toBe('RCVD')
    await verifyResponseSignature(paid, jwks)
    const paymentId = paid.json.Data.DomesticPaymentId as string
    expect((await get(`/domestic-payment-consents/${consentId}`, cc)).json.Data.Status).toBe('COND')

    await s.sandbox.context.clock.advance(2_000)
    expect((await get(`/domestic-payments/${paymentId}`, cc)).json.Data.Status).toBe('ACSP')
    await s.sandbox.context.clock.advance(8_000)
    const done = await get(`/domestic-payments/${paymentId}`, cc)
    expect(done.json.Data.Status).toBe('ACSC')
    await verifyResponseSignature(done, jwks)
    const details = await get(`/domestic-payments/${paymentId}/payment-details`, cc)
    expect(details.json.Data.PaymentStatus.map((p: { Status: string }) => p.Status)).toEqual(['PDNG', 'ACSP', 'ACSC'])
  })

  it("checks the signature against the registered client's software statement", async () => {
    const cc = await tpp.clientCredentials(client, 'payments')
    const body = JSON.stringify(consentBody())
    const wrongIss = await post('/domestic-payment-consents', cc, body, {
      sign: { header: { 'http://openbanking.org.uk/iss': `${tpp.kit.orgId}/someoneElse` } },
    })
    expect(wrongIss.status).toBe(400)
    expect(wrongIss.json.Errors[0].ErrorCode).toBe('U016')
    const otherTpp = await s.onboard({ roles: ['PISP'] })
    const foreignKey = await post('/domestic-payment-consents', cc, body, {
      sign: { header: { kid: otherTpp.kit.signingKid }, key: await otherTpp.signingKey() },
    })
    expect(foreignKey.status).toBe(400)
    expect(foreignKey.json.Errors[0].ErrorCode).toBe('U015')
    await verifyResponseSignature(foreignKey, jwks)
  })

  it('another registered TPP is refused the consent and the payment endpoints need the right token', async () => {
    const cc = await tpp.clientCredentials(client, 'payments')
    const body = consentBody()
    const consentId = (await post('/domestic-payment-consents', cc, JSON.stringify(body))).json.Data.ConsentId
    const other = await s.onboard({ roles: ['PISP'] })
    const otherClient = await other.register({ overrides: { scope: 'openid payments' } })
    const otherCc = await other.clientCredentials(otherClient, 'payments')
    const res = await other.call('GET', `${s.sandbox.baseUrl}${PIS}/domestic-payment-consents/${consentId}`, {
      headers: { authorization: `Bearer ${otherCc}` },
    })
    expect(res.status).toBe(403)
    // A client-credentials token cannot submit a payment.
    const pay = await post('/domestic-payments', cc, JSON.stringify(paymentBody(consentId, body)))
    expect(pay.status).toBe(403)
  })
})
