import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { consentBody, paymentBody } from './support/pis-bodies.ts'
import type { PisClient } from './support/pis-client.ts'
import { startPisHarness, type PisHarness } from './support/pis-harness.ts'
import { verifyResponseSignature } from './support/verify-response.ts'

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/

describe('PIS v4.0 journey over mTLS (in-test auth server)', () => {
  let h: PisHarness
  let tpp: PisClient

  beforeAll(async () => {
    h = await startPisHarness()
    tpp = await h.onboard()
  })
  afterAll(async () => h?.stop())

  it('consent -> authorise -> funds -> payment -> status over the clock -> payment-details, every response signed', async () => {
    const jwks = h.context.signingKey.publicJwks
    const body = consentBody('12.50')

    // 1. Create the consent.
    const created = await tpp.createConsent(body, {
      headers: { 'x-fapi-interaction-id': '93bac548-d2de-4546-b106-880a5018460d' },
    })
    expect(created.status).toBe(201)
    expect(created.headers['x-fapi-interaction-id']).toBe('93bac548-d2de-4546-b106-880a5018460d')
    expect(created.headers['content-type']).toMatch(/^application\/json/)
    const c = created.json.Data
    expect(c.ConsentId).toMatch(/^sdp-/)
    expect(c.Status).toBe('AWAU')
    expect(c.CreationDateTime).toMatch(ISO)
    expect(c.StatusUpdateDateTime).toMatch(ISO)
    expect(c.CutOffDateTime).toMatch(ISO)
    expect(c.ExpectedExecutionDateTime).toMatch(ISO)
    expect(c.ExpectedSettlementDateTime).toMatch(ISO)
    expect(c.Charges).toEqual([])
    expect(c.ReadRefundAccount).toBe('Yes')
    expect(c.Initiation).toEqual(body.Data.Initiation)
    expect(c.Debtor).toBeUndefined()
    expect(created.json.Risk).toEqual(body.Risk)
    expect(created.json.Links.Self).toBe(`${h.baseUrl}/open-banking/v4.0/pisp/domestic-payment-consents/${c.ConsentId}`)
    expect(created.json.Meta).toEqual({})
    const header = await verifyResponseSignature(created, jwks)
    expect(header).toMatchObject({
      alg: 'PS256',
      kid: h.context.signingKey.kid,
      'http://openbanking.org.uk/iss': '0015800000LOCALSBX',
      'http://openbanking.org.uk/tan': 'openbanking.org.uk',
      crit: ['http://openbanking.org.uk/iat', 'http://openbanking.org.uk/iss', 'http://openbanking.org.uk/tan'],
    })
    expect(header).not.toHaveProperty('b64')
    expect(typeof header['http://openbanking.org.uk/iat']).toBe('number')
    const consentId = c.ConsentId as string

    // 2. GET shows AWAU; funds confirmation is refused before authorisation.
    const awaiting = await tpp.getConsent(consentId)
    expect(awaiting.status).toBe(200)
    expect(awaiting.json.Data.Status).toBe('AWAU')
    await verifyResponseSignature(awaiting, jwks)
    const early = await tpp.fundsConfirmation(consentId)
    expect(early.status).toBe(400)
    expect(early.json.Errors[0].ErrorCode).toBe('U009')
    await verifyResponseSignature(early, jwks)

    // 3. The PSU authorises it with her current account.
    await h.context.consents.authorise(consentId, 'psu-amelia', ['acc-amelia-current'])
    const authorised = await tpp.getConsent(consentId)
    expect(authorised.json.Data.Status).toBe('AUTH')
    expect(authorised.json.Data.Debtor).toEqual({
      SchemeName: 'UK.OBIE.SortCodeAccountNumber',
      Identification: '40051277001122',
      Name: 'Amelia Hughes',
    })

    // 4. Funds confirmation: available, and the consent stays AUTH.
    const funds = await tpp.fundsConfirmation(consentId)
    expect(funds.status).toBe(200)
    expect(funds.json.Data.FundsAvailableResult.FundsAvailable).toBe(true)
    expect(funds.json.Data.FundsAvailableResult.FundsAvailableDateTime).toMatch(ISO)
    await verifyResponseSignature(funds, jwks)
    expect((await tpp.getConsent(consentId)).json.Data.Status).toBe('AUTH')

    // 5. The payment.
    const paid = await tpp.createPayment(consentId, paymentBody(consentId, body))
    expect(paid.status).toBe(201)
    await verifyResponseSignature(paid, jwks)
    const p = paid.json.Data
    expect(p.DomesticPaymentId).toMatch(/^dp-/)
    expect(p.DomesticPaymentId.length).toBeLessThanOrEqual(40)
    expect(p.ConsentId).toBe(consentId)
    expect(p.Status).toBe('RCVD')
    expect(p.StatusUpdateDateTime).toBe(p.CreationDateTime)
    expect(p.Initiation).toEqual(body.Data.Initiation)
    expect(p.Debtor.Identification).toBe('40051277001122')
    expect(p.Refund).toEqual({
      Account: { SchemeName: 'UK.OBIE.SortCodeAccountNumber', Identification: '40051277001122', Name: 'Amelia Hughes' },
    })
    expect(p.Charges).toEqual([])
    expect(paid.json).not.toHaveProperty('Risk')
    expect(paid.json.Links.Self).toBe(`${h.baseUrl}/open-banking/v4.0/pisp/domestic-payments/${p.DomesticPaymentId}`)
    const paymentId = p.DomesticPaymentId as string

    // The consent is consumed.
    const consumed = await tpp.getConsent(consentId)
    expect(consumed.json.Data.Status).toBe('COND')
    expect(consumed.json.Data.StatusReason[0].StatusReasonCode).toBe('U038')

    // 6. Status over the sandbox clock: RCVD -> ACSP (2 s) -> ACSC (10 s).
    expect((await tpp.getPayment(paymentId)).json.Data.Status).toBe('RCVD')
    await h.clock.advance(2_000)
    const acsp = await tpp.getPayment(paymentId)
    expect(acsp.json.Data.Status).toBe('ACSP')
    expect(Date.parse(acsp.json.Data.StatusUpdateDateTime) - Date.parse(p.CreationDateTime)).toBe(2_000)
    await verifyResponseSignature(acsp, jwks)
    await h.clock.advance(8_000)
    const acsc = await tpp.getPayment(paymentId)
    expect(acsc.json.Data.Status).toBe('ACSC')
    expect(Date.parse(acsc.json.Data.StatusUpdateDateTime) - Date.parse(p.CreationDateTime)).toBe(10_000)

    // 7. payment-details: the whole history.
    const details = await tpp.paymentDetails(paymentId)
    expect(details.status).toBe(200)
    await verifyResponseSignature(details, jwks)
    const history = details.json.Data.PaymentStatus as Array<Record<string, any>> // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(history.map((s) => s.Status)).toEqual(['PDNG', 'ACSP', 'ACSC'])
    for (const s of history) {
      expect(s.PaymentTransactionId).toBe(history[0]!.PaymentTransactionId)
      expect(s.StatusUpdateDateTime).toMatch(ISO)
      expect(s.StatusDetail.LocalInstrument).toBe('UK.OBIE.FPS')
    }
    expect(history[2]!.StatusDetail.Status).toBe('ACSC')
  })

  it('persists payments and consents: a new server over the same data directory sees them', async () => {
    const body = consentBody('1.00')
    const consentId = (await tpp.createConsent(body)).json.Data.ConsentId
    await h.context.consents.authorise(consentId, 'psu-amelia', ['acc-amelia-current'])
    const paymentId = (await tpp.createPayment(consentId, paymentBody(consentId, body))).json.Data.DomesticPaymentId
    const second = await startPisHarness({ dataDir: h.context.layout.root })
    try {
      const again = await second.onboard()
      // Another TPP (new client) cannot read it; the store still knows it (403, not 400).
      expect((await again.getPayment(paymentId)).status).toBe(403)
      expect((await again.getConsent(consentId)).status).toBe(403)
    } finally {
      await second.stop()
    }
  })
})
