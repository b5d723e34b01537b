import { Agent, request } from 'undici'
import { balanceView } from '../../../../src-main/local-sandbox/ais/views/account-views.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { consentBody, paymentBody, type ConsentBody } from './support/pis-bodies.ts'
import { PIS, type PisClient } from './support/pis-client.ts'
import { startPisHarness, type PisHarness } from './support/pis-harness.ts'
import { verifyResponseSignature } from './support/verify-response.ts'

describe('PIS payment rules, ownership and tokens', () => {
  let h: PisHarness
  let tpp: PisClient
  let other: PisClient

  beforeAll(async () => {
    h = await startPisHarness()
    tpp = await h.onboard()
    other = await h.onboard()
  })
  afterAll(async () => h?.stop())

  async function authorisedConsent(body: ConsentBody = consentBody(), account = 'acc-amelia-current'): Promise<string> {
    const res = await tpp.createConsent(body)
    expect(res.status, res.text).toBe(201)
    const psu = h.context.psus.account(account)!.psu.psuId
    await h.context.consents.authorise(res.json.Data.ConsentId, psu, [account])
    return res.json.Data.ConsentId
  }

  it("U008 when the payment's Initiation differs from the consent's, naming the first differing path", async () => {
    const body = consentBody()
    const consentId = await authorisedConsent(body)
    const pay = paymentBody(consentId, body) as { Data: { Initiation: Record<string, any> } } // eslint-disable-line @typescript-eslint/no-explicit-any
    pay.Data.Initiation.InstructedAmount.Amount = '12.51'
    const res = await tpp.createPayment(consentId, pay)
    expect(res.status).toBe(400)
    expect(res.json.Errors[0]).toMatchObject({ ErrorCode: 'U008', Path: 'Data.Initiation.InstructedAmount.Amount' })
    // A field added to the Initiation is a difference too.
    const added = paymentBody(consentId, body) as { Data: { Initiation: Record<string, unknown> } }
    added.Data.Initiation.DebtorAccount = {
      SchemeName: 'UK.OBIE.SortCodeAccountNumber',
      Identification: '40051277001122',
    }
    const res2 = await tpp.createPayment(consentId, added)
    expect(res2.json.Errors[0]).toMatchObject({ ErrorCode: 'U008', Path: 'Data.Initiation.DebtorAccount' })
    // Key order does not matter.
    const reordered = {
      Risk: body.Risk,
      Data: { Initiation: Object.fromEntries(Object.entries(body.Data.Initiation).reverse()), ConsentId: consentId },
    }
    const ok = await tpp.createPayment(consentId, reordered)
    expect(ok.status, ok.text).toBe(201)
  })

  it('U008 when the Risk differs (a field changed, a field left out)', async () => {
    const body = consentBody()
    const consentId = await authorisedConsent(body)
    const changed = paymentBody(consentId, body) as { Risk: Record<string, unknown> }
    changed.Risk.PaymentContextCode = 'TransferToThirdParty'
    const res = await tpp.createPayment(consentId, changed)
    expect(res.status).toBe(400)
    expect(res.json.Errors[0]).toMatchObject({ ErrorCode: 'U008', Path: 'Risk.PaymentContextCode' })
    const dropped = paymentBody(consentId, body) as { Risk: Record<string, unknown> }
    delete dropped.Risk.MerchantCategoryCode
    expect((await tpp.createPayment(consentId, dropped)).json.Errors[0]).toMatchObject({
      ErrorCode: 'U008',
      Path: 'Risk.MerchantCategoryCode',
    })
    expect((await tpp.getConsent(consentId)).json.Data.Status).toBe('AUTH')
  })

  it('U009 when the consent is not AUTH (awaiting authorisation, rejected)', async () => {
    const body = consentBody()
    const awaiting = (await tpp.createConsent(body)).json.Data.ConsentId
    const res = await tpp.createPayment(awaiting, paymentBody(awaiting, body))
    expect(res.status).toBe(400)
    expect(res.json.Errors[0].ErrorCode).toBe('U009')
    expect(res.json.Errors[0].Message).toMatch(/is AWAU: the PSU has not authorised it yet/)
    const rejected = (await tpp.createConsent(body)).json.Data.ConsentId
    await h.context.consents.reject(rejected, 'psu-amelia')
    const res2 = await tpp.createPayment(rejected, paymentBody(rejected, body))
    expect(res2.json.Errors[0].ErrorCode).toBe('U009')
    expect(res2.json.Errors[0].Message).toMatch(/is RJCT/)
    expect((await tpp.fundsConfirmation(rejected)).json.Errors[0].ErrorCode).toBe('U009')
  })

  it('a consumed consent (COND): 409 U029 for a second payment, 400 U009 for funds confirmation', async () => {
    const body = consentBody()
    const consentId = await authorisedConsent(body)
    const first = await tpp.createPayment(consentId, paymentBody(consentId, body))
    expect(first.status).toBe(201)
    const second = await tpp.createPayment(consentId, paymentBody(consentId, body))
    expect(second.status).toBe(409)
    expect(second.json.Errors[0].ErrorCode).toBe('U029')
    await verifyResponseSignature(second, h.context.signingKey.publicJwks)
    const funds = await tpp.fundsConfirmation(consentId)
    expect(funds.status).toBe(400)
    expect(funds.json.Errors[0].ErrorCode).toBe('U009')
    expect(funds.json.Errors[0].Message).toMatch(/COND/)
  })

  it('insufficient funds: FundsAvailable false, and the payment is created RJCT with AM04 and never moves', async () => {
    const body = consentBody('100000.00') // far above what any test account holds
    const consentId = await authorisedConsent(body)
    expect((await tpp.fundsConfirmation(consentId)).json.Data.FundsAvailableResult.FundsAvailable).toBe(false)
    const res = await tpp.createPayment(consentId, paymentBody(consentId, body))
    expect(res.status).toBe(201)
    expect(res.json.Data.Status).toBe('RJCT')
    expect(res.json.Data.StatusReason).toEqual([
      { StatusReasonCode: 'AM04', StatusReasonDescription: expect.stringMatching(/Insufficient funds/) },
    ])
    expect(res.json.Data.ExpectedExecutionDateTime).toBeUndefined()
    expect((await tpp.getConsent(consentId)).json.Data.Status).toBe('COND')
    await h.clock.advance(60_000)
    const later = await tpp.getPayment(res.json.Data.DomesticPaymentId)
    expect(later.json.Data.Status).toBe('RJCT')
    const details = await tpp.paymentDetails(res.json.Data.DomesticPaymentId)
    expect(details.json.Data.PaymentStatus).toHaveLength(1)
    expect(details.json.Data.PaymentStatus[0].StatusDetail).toMatchObject({ Status: 'RJCT', StatusReason: 'AM04' })
  })

  it('accepted payments use up the available balance (savings: the documented seed figure)', async () => {
    // Rahul's savings account: 12000.00 (AIS does not hold savings accounts; docs/local-sandbox/pis.md, "Funds").
    const a = consentBody('9000.00')
    const first = await authorisedConsent(a, 'acc-rahul-savings')
    expect((await tpp.fundsConfirmation(first)).json.Data.FundsAvailableResult.FundsAvailable).toBe(true)
    expect((await tpp.createPayment(first, paymentBody(first, a))).json.Data.Status).toBe('RCVD')
    const b = consentBody('3000.01')
    const second = await authorisedConsent(b, 'acc-rahul-savings')
    expect((await tpp.fundsConfirmation(second)).json.Data.FundsAvailableResult.FundsAvailable).toBe(false)
    const c = consentBody('3000.00')
    const third = await authorisedConsent(c, 'acc-rahul-savings')
    expect((await tpp.fundsConfirmation(third)).json.Data.FundsAvailableResult.FundsAvailable).toBe(true)
  })

  /** Available funds of an account AIS holds, in pence: ITAV plus the arranged overdraft, from the bank the PIS routes use. */
  function aisFunds(accountId: string): number {
    const now = h.clock.nowMs()
    const view = balanceView(h.bank.at(now).account(accountId)!, now) as {
      CreditDebitIndicator: string
      Amount: { Amount: string }
      CreditLine?: Array<{ Type: string; Amount: { Amount: string } }>
    }
    const pence = (a: string) => Math.round(Number(a) * 100)
    const itav = pence(view.Amount.Amount) * (view.CreditDebitIndicator === 'Debit' ? -1 : 1)
    return itav + pence(view.CreditLine?.find((l) => l.Type === 'Pre-Agreed')?.Amount.Amount ?? '0')
  }
  const asAmount = (p: number) => `${Math.floor(p / 100)}.${String(p % 100).padStart(2, '0')}`

  it('current accounts: funds are the balance AIS publishes (ITAV) plus the arranged overdraft', async () => {
    const funds = aisFunds('acc-rahul-current')
    expect(funds).toBeGreaterThan(1)
    const exact = await authorisedConsent(consentBody(asAmount(funds)), 'acc-rahul-current')
    expect((await tpp.fundsConfirmation(exact)).json.Data.FundsAvailableResult.FundsAvailable).toBe(true)
    const over = await authorisedConsent(consentBody(asAmount(funds + 1)), 'acc-rahul-current')
    expect((await tpp.fundsConfirmation(over)).json.Data.FundsAvailableResult.FundsAvailable).toBe(false)
  })

  it('current accounts: two payments that each fit but together exceed the funds, the second is rejected AM04', async () => {
    // Margins of 10.00 to 50.00 keep the test exact while the clock moves a few ms between the requests.
    const funds = aisFunds('acc-grace-current')
    expect(funds).toBeGreaterThan(20_000)
    const a = consentBody(asAmount(funds - 5_000))
    const b = consentBody('60.00')
    const first = await authorisedConsent(a, 'acc-grace-current')
    const second = await authorisedConsent(b, 'acc-grace-current')
    // Each alone is covered.
    expect((await tpp.fundsConfirmation(first)).json.Data.FundsAvailableResult.FundsAvailable).toBe(true)
    expect((await tpp.fundsConfirmation(second)).json.Data.FundsAvailableResult.FundsAvailable).toBe(true)
    expect((await tpp.createPayment(first, paymentBody(first, a))).json.Data.Status).toBe('RCVD')
    // The first payment is in the AIS balance now (pending), taken off once: about 50.00 is left.
    expect(aisFunds('acc-grace-current')).toBeGreaterThan(4_000)
    expect(aisFunds('acc-grace-current')).toBeLessThan(6_000)
    expect((await tpp.fundsConfirmation(second)).json.Data.FundsAvailableResult.FundsAvailable).toBe(false)
    const rejected = await tpp.createPayment(second, paymentBody(second, b))
    expect(rejected.json.Data.Status).toBe('RJCT')
    expect(rejected.json.Data.StatusReason[0].StatusReasonCode).toBe('AM04')
    // What is left still pays a smaller payment (the rejected one took nothing).
    const c = consentBody('40.00')
    const third = await authorisedConsent(c, 'acc-grace-current')
    expect((await tpp.createPayment(third, paymentBody(third, c))).json.Data.Status).toBe('RCVD')
  })

  it("U012 after the consent's CutOffDateTime (24 h of sandbox time)", async () => {
    const body = consentBody()
    const consentId = await authorisedConsent(body)
    const cutOff = (await tpp.getConsent(consentId)).json.Data.CutOffDateTime
    await h.clock.advance(24 * 60 * 60 * 1000 + 1_000)
    const res = await tpp.createPayment(consentId, paymentBody(consentId, body))
    expect(res.status).toBe(400)
    expect(res.json.Errors[0].ErrorCode).toBe('U012')
    expect(res.json.Errors[0].Message).toContain(cutOff)
  })

  it('another TPP cannot read or use a consent or payment (403), and unknown ids are 400 U011', async () => {
    const body = consentBody()
    const consentId = await authorisedConsent(body)
    const paymentId = (await tpp.createPayment(consentId, paymentBody(consentId, body))).json.Data.DomesticPaymentId
    expect((await other.getConsent(consentId)).status).toBe(403)
    expect((await other.getPayment(paymentId)).status).toBe(403)
    expect((await other.paymentDetails(paymentId)).status).toBe(403)
    // Even with an authorisation-code token that names the consent, another client is refused.
    const stolen = await other.fundsConfirmation(consentId)
    expect(stolen.status).toBe(403)
    expect(stolen.json.Errors[0].Message).toMatch(/not created by the client of this access token/)
    const body2 = consentBody()
    const consent2 = await authorisedConsent(body2)
    const pay = await other.createPayment(consent2, paymentBody(consent2, body2))
    expect(pay.status).toBe(403)
    expect((await tpp.getConsent(consent2)).json.Data.Status).toBe('AUTH')

    for (const res of [
      await tpp.getConsent('sdp-nope'),
      await tpp.getPayment('dp-nope'),
      await tpp.paymentDetails('dp-nope'),
      await tpp.fundsConfirmation('sdp-nope'),
    ]) {
      expect(res.status).toBe(400)
      expect(res.json.Errors[0].ErrorCode).toBe('U011')
    }
  })

  it('403 for the wrong grant or a token issued for another consent', async () => {
    const body = consentBody()
    const consentId = await authorisedConsent(body)
    const otherConsent = await authorisedConsent()
    // Consent creation with an authorisation-code token, payment with a client-credentials token.
    const acCreate = await tpp.call('POST', '/domestic-payment-consents', {
      token: tpp.acToken(consentId),
      body: JSON.stringify(body),
    })
    expect(acCreate.status).toBe(403)
    const ccPay = await tpp.call('POST', '/domestic-payments', {
      token: tpp.ccToken(),
      body: JSON.stringify(paymentBody(consentId, body)),
    })
    expect(ccPay.status).toBe(403)
    expect((await tpp.fundsConfirmation(consentId, { token: tpp.ccToken() })).status).toBe(403)
    expect((await tpp.getConsent(consentId, { token: tpp.acToken(consentId) })).status).toBe(403)
    const wrongConsent = await tpp.createPayment(consentId, paymentBody(consentId, body), {
      token: tpp.acToken(otherConsent),
    })
    expect(wrongConsent.status).toBe(403)
    expect(wrongConsent.json.Errors[0].Message).toContain(`issued for consent ${otherConsent}, not ${consentId}`)
    // Scope without payments.
    const accountsOnly = h.tokens.issue({
      clientId: tpp.id.clientId,
      grant: 'client_credentials',
      scopes: ['accounts'],
      certificateThumbprint: tpp.id.thumbprint,
    })
    expect((await tpp.getConsent(consentId, { token: accountsOnly })).status).toBe(403)
  })

  it('401 without a body for a missing, unknown or expired token and without a client certificate', async () => {
    const consentId = (await tpp.createConsent(consentBody())).json.Data.ConsentId
    const none = await tpp.call('GET', `/domestic-payment-consents/${consentId}`)
    expect(none.status).toBe(401)
    expect(none.text).toBe('')
    expect(none.headers['www-authenticate']).toMatch(/^Bearer/)
    expect(none.headers['x-fapi-interaction-id']).toBeTruthy()
    expect((await tpp.call('GET', `/domestic-payment-consents/${consentId}`, { token: 'not-a-token' })).status).toBe(
      401,
    )
    const shortLived = h.tokens.issue({
      clientId: tpp.id.clientId,
      grant: 'client_credentials',
      scopes: ['payments'],
      expiresAt: h.clock.nowSeconds() + 5,
    })
    await h.clock.advance(6_000)
    expect((await tpp.call('GET', `/domestic-payment-consents/${consentId}`, { token: shortLived })).status).toBe(401)
    // A token bound to this TPP's certificate, presented over another TPP's connection.
    const res = await request(`${h.baseUrl}${PIS}/domestic-payment-consents/${consentId}`, {
      headers: { authorization: `Bearer ${tpp.ccToken()}` },
      dispatcher: other.agent,
    })
    expect(res.statusCode).toBe(401)
    await res.body.text()
    const noCert = new Agent({ connect: { ca: h.caBundlePem } })
    try {
      const plain = await request(`${h.baseUrl}${PIS}/domestic-payment-consents/${consentId}`, {
        headers: { authorization: `Bearer ${tpp.ccToken()}` },
        dispatcher: noCert,
      })
      expect(plain.statusCode).toBe(401)
      expect(String(plain.headers['www-authenticate'])).toMatch(/no client certificate/)
      await plain.body.text()
    } finally {
      await noCert.close()
    }
  })
})
