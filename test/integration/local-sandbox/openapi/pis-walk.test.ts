/**
 * Walks every PIS v4.0 endpoint the sandbox serves through the real servers (directory onboarding, DCR,
 * token endpoint, headless authorisation, mutual TLS): consents in every status (AWAU, AUTH, COND, RJCT),
 * payments in every status (RCVD, ACSP, ACSC, RJCT), payment details, funds confirmation, error answers;
 * each response (status, required headers, body) is validated against the official v4.0 schemas.
 */
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { obSchemas } from '../../../../src-main/local-sandbox/openapi/ob-openapi.ts'
import { startTestSandbox, type TestSandbox } from '../support/sandbox-fixture.ts'
import type { HttpResponse, RegisteredTestClient, TestTpp } from '../support/test-tpp.ts'
import { signDetached, type TppSigner } from '../pis/support/detached-sign.ts'
import { consentBody, paymentBody } from '../pis/support/pis-bodies.ts'
import { groupViolations, type Found } from './support/violations.ts'

const PIS = '/open-banking/v4.0/pisp'

describe('PIS responses against the official v4.0 schemas', () => {
  let s: TestSandbox
  let tpp: TestTpp
  let client: RegisteredTestClient
  let signer: TppSigner
  const found: Found[] = []
  const statuses = new Set<string>()

  beforeAll(async () => {
    s = await startTestSandbox()
    tpp = await s.onboard({ roles: ['PISP'] })
    client = await tpp.register({ overrides: { sandbox_profile: 'strict-headless', scope: 'openid payments' } })
    signer = {
      kid: tpp.kit.signingKid,
      privateKey: await tpp.signingKey(),
      iss: `${tpp.kit.orgId}/${tpp.kit.softwareId}`,
    }
  })
  afterAll(async () => s?.stop())

  function check(method: string, path: string, res: HttpResponse): HttpResponse {
    for (const v of obSchemas().checkResponse('pis', method, path, res.status, res.headers, res.json)) {
      found.push({
        endpoint: `${method} ${obSchemas().matchPath('pis', path) ?? path} ${res.status}`,
        violation: v,
        body: res.json,
      })
    }
    const status = res.json?.Data?.Status
    if (typeof status === 'string') statuses.add(`${path.split('/')[1]}:${status}`)
    return res
  }

  async function post(path: string, token: string, body: unknown): Promise<HttpResponse> {
    const text = typeof body === 'string' ? body : JSON.stringify(body)
    const res = await tpp.call('POST', `${s.sandbox.baseUrl}${PIS}${path}`, {
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'x-idempotency-key': randomUUID(),
        'x-jws-signature': signDetached(text, signer),
      },
      body: text,
    })
    return check('POST', path, res)
  }

  async function get(path: string, token: string): Promise<HttpResponse> {
    return check(
      'GET',
      path,
      await tpp.call('GET', `${s.sandbox.baseUrl}${PIS}${path}`, { headers: { authorization: `Bearer ${token}` } }),
    )
  }

  /** A consent authorised headlessly and its authorisation-code token. */
  async function authorisedConsent(
    cc: string,
    amount: string,
  ): Promise<{ consentId: string; body: ReturnType<typeof consentBody>; ac: string }> {
    const body = consentBody(amount)
    const created = await post('/domestic-payment-consents', cc, body)
    expect(created.status, created.text).toBe(201)
    const consentId = created.json.Data.ConsentId as string
    await get(`/domestic-payment-consents/${consentId}`, cc)
    const auth = await tpp.authoriseHeadless(client, consentId, 'openid payments')
    const exchanged = await tpp.exchangeCode(client, auth.code!)
    expect(exchanged.status, exchanged.text).toBe(200)
    return { consentId, body, ac: exchanged.json.access_token as string }
  }

  it('every endpoint, every consent and payment status, errors: zero violations', async () => {
    const cc = await tpp.clientCredentials(client, 'payments')

    // AUTH → funds → payment RCVD → ACSP → ACSC, consent COND; details at each step.
    const { consentId, body, ac } = await authorisedConsent(cc, '20.00')
    await get(`/domestic-payment-consents/${consentId}`, cc)
    await get(`/domestic-payment-consents/${consentId}/funds-confirmation`, ac)
    const paid = await post('/domestic-payments', ac, paymentBody(consentId, body))
    expect(paid.status, paid.text).toBe(201)
    const paymentId = paid.json.Data.DomesticPaymentId as string
    await get(`/domestic-payment-consents/${consentId}`, cc)
    for (const step of [0, 2_000, 8_000]) {
      await s.sandbox.context.clock.advance(step)
      await get(`/domestic-payments/${paymentId}`, cc)
      await get(`/domestic-payments/${paymentId}/payment-details`, cc)
    }

    // A payment rejected for insufficient funds (RJCT) and its details.
    const big = await authorisedConsent(cc, '999999999.00')
    await get(`/domestic-payment-consents/${big.consentId}/funds-confirmation`, big.ac)
    const rejected = await post('/domestic-payments', big.ac, paymentBody(big.consentId, big.body))
    if (rejected.status === 201) {
      await get(`/domestic-payments/${rejected.json.Data.DomesticPaymentId}`, cc)
      await get(`/domestic-payments/${rejected.json.Data.DomesticPaymentId}/payment-details`, cc)
    }

    // A consent the PSU refused (RJCT).
    const refused = await post('/domestic-payment-consents', cc, consentBody('5.00'))
    await s.sandbox.context.consents.reject(refused.json.Data.ConsentId)
    await get(`/domestic-payment-consents/${refused.json.Data.ConsentId}`, cc)

    // Error answers: a bad body, an unknown consent, a second payment on a consumed consent.
    await post('/domestic-payment-consents', cc, { Data: { Initiation: {} }, Risk: {} })
    await get(`/domestic-payment-consents/no-such-consent`, cc)
    await post('/domestic-payments', ac, paymentBody(consentId, body))

    for (const st of [
      'domestic-payment-consents:AWAU',
      'domestic-payment-consents:AUTH',
      'domestic-payment-consents:COND',
      'domestic-payment-consents:RJCT',
      'domestic-payments:RCVD',
      'domestic-payments:ACSP',
      'domestic-payments:ACSC',
      'domestic-payments:RJCT',
    ]) {
      expect(statuses, `${st} was not walked`).toContain(st)
    }
    const groups = groupViolations(found)
    expect(
      groups,
      groups
        .map((g) => `${g.count}x ${g.group}: ${JSON.stringify(g.example.value)?.slice(0, 80)} (${g.example.message})`)
        .join('\n'),
    ).toEqual([])
  }, 120_000)
})
