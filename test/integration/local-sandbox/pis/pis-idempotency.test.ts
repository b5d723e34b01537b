import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { consentBody, paymentBody } from './support/pis-bodies.ts'
import type { PisClient } from './support/pis-client.ts'
import { startPisHarness, type PisHarness } from './support/pis-harness.ts'

describe('x-idempotency-key on PIS POSTs', () => {
  let h: PisHarness
  let tpp: PisClient
  let other: PisClient

  beforeAll(async () => {
    h = await startPisHarness()
    tpp = await h.onboard()
    other = await h.onboard()
  })
  afterAll(async () => h?.stop())

  it('a consent replay (same key, same body) answers 201 with the original consent in its current state', async () => {
    const key = randomUUID()
    const body = JSON.stringify(consentBody())
    const first = await tpp.createConsent(body, { idempotencyKey: key })
    expect(first.status).toBe(201)
    const consentId = first.json.Data.ConsentId
    await h.context.consents.authorise(consentId, 'psu-rahul', ['acc-rahul-current'])
    // A retry one second later (a fresh signature: the iat differs, the body does not).
    const replay = await tpp.createConsent(body, {
      idempotencyKey: key,
      sign: { header: { 'http://openbanking.org.uk/iat': Math.floor(Date.now() / 1000) } },
    })
    expect(replay.status).toBe(201)
    expect(replay.json.Data.ConsentId).toBe(consentId)
    expect(replay.json.Data.Status).toBe('AUTH')
    expect(replay.json.Data.CreationDateTime).toBe(first.json.Data.CreationDateTime)
  })

  it('the same key with another body is refused (400 U006) and the first consent is untouched', async () => {
    const key = randomUUID()
    const original = consentBody('5.00')
    const first = await tpp.createConsent(original, { idempotencyKey: key })
    const changed = await tpp.createConsent(consentBody('500.00'), { idempotencyKey: key })
    expect(changed.status).toBe(400)
    expect(changed.json.Errors[0]).toMatchObject({ ErrorCode: 'U006', Path: 'x-idempotency-key' })
    expect(changed.json.Errors[0].Message).toMatch(/already used with another body/)
    expect(changed.json.Errors[0].Message).toContain(first.json.Data.ConsentId)
    const still = await tpp.getConsent(first.json.Data.ConsentId)
    expect(still.json.Data.Initiation.InstructedAmount.Amount).toBe('5.00')
    // Byte-equal means byte-equal: the same JSON re-serialised with spaces is another body.
    const spaced = await tpp.createConsent(JSON.stringify(original, null, 1), { idempotencyKey: key })
    expect(spaced.status).toBe(400)
  })

  it('keys are per TPP: another client may use the same key for its own consent', async () => {
    const key = randomUUID()
    const body = JSON.stringify(consentBody())
    const mine = await tpp.createConsent(body, { idempotencyKey: key })
    const theirs = await other.createConsent(body, { idempotencyKey: key })
    expect(theirs.status).toBe(201)
    expect(theirs.json.Data.ConsentId).not.toBe(mine.json.Data.ConsentId)
  })

  it('a key is remembered for 24 hours of sandbox time, then a new consent is created', async () => {
    const key = randomUUID()
    const body = JSON.stringify(consentBody())
    const first = await tpp.createConsent(body, { idempotencyKey: key })
    await h.clock.advance(24 * 60 * 60 * 1000 - 60_000)
    expect((await tpp.createConsent(body, { idempotencyKey: key })).json.Data.ConsentId).toBe(first.json.Data.ConsentId)
    await h.clock.advance(60_000)
    const later = await tpp.createConsent(body, { idempotencyKey: key })
    expect(later.status).toBe(201)
    expect(later.json.Data.ConsentId).not.toBe(first.json.Data.ConsentId)
  })

  it('a refused request does not consume its key', async () => {
    const key = randomUUID()
    const bad = consentBody()
    bad.Data.Initiation.InstructedAmount.Currency = 'EUR'
    expect((await tpp.createConsent(bad, { idempotencyKey: key })).status).toBe(400)
    expect((await tpp.createConsent(consentBody(), { idempotencyKey: key })).status).toBe(201)
  })

  it('refuses a missing key (U007), one over 40 characters (U006); a blank key counts as missing', async () => {
    const missing = await tpp.createConsent(consentBody(), { idempotencyKey: false })
    expect(missing.status).toBe(400)
    expect(missing.json.Errors[0]).toMatchObject({ ErrorCode: 'U007', Path: 'x-idempotency-key' })
    const long = await tpp.createConsent(consentBody(), { idempotencyKey: 'k'.repeat(41) })
    expect(long.status).toBe(400)
    expect(long.json.Errors[0]).toMatchObject({ ErrorCode: 'U006', Path: 'x-idempotency-key' })
    expect(long.json.Errors[0].Message).toMatch(/41 characters; v4.0 allows at most 40/)
    expect((await tpp.createConsent(consentBody(), { idempotencyKey: 'k'.repeat(40) })).status).toBe(201)
    const spaced = await tpp.call('POST', '/domestic-payment-consents', {
      token: tpp.ccToken(),
      body: JSON.stringify(consentBody()),
      idempotencyKey: false,
      // HTTP strips leading and trailing whitespace from header values, so a blank key arrives empty.
      headers: { 'x-idempotency-key': '   ' },
    })
    expect(spaced.status).toBe(400)
    expect(spaced.json.Errors[0].ErrorCode).toBe('U007')
  })

  it('a payment replay returns the original payment (201, current status); a new key for the same consent is 409 U029', async () => {
    const body = consentBody('3.00')
    const consentId = (await tpp.createConsent(body)).json.Data.ConsentId
    await h.context.consents.authorise(consentId, 'psu-amelia', ['acc-amelia-current'])
    const key = randomUUID()
    const pay = JSON.stringify(paymentBody(consentId, body))
    const first = await tpp.createPayment(consentId, pay, { idempotencyKey: key })
    expect(first.status).toBe(201)
    await h.clock.advance(3_000)
    const replay = await tpp.createPayment(consentId, pay, { idempotencyKey: key })
    expect(replay.status).toBe(201)
    expect(replay.json.Data.DomesticPaymentId).toBe(first.json.Data.DomesticPaymentId)
    expect(replay.json.Data.Status).toBe('ACSP')
    const again = await tpp.createPayment(consentId, pay, { idempotencyKey: randomUUID() })
    expect(again.status).toBe(409)
    expect(again.json.Errors[0]).toMatchObject({ ErrorCode: 'U029', Path: 'Data.ConsentId' })
    expect(again.json.Errors[0].Message).toContain(first.json.Data.DomesticPaymentId)
    const otherBody = await tpp.createPayment(consentId, pay.replace('"Order 4711"', '"Order 4712"'), {
      idempotencyKey: key,
    })
    expect(otherBody.status).toBe(400)
    expect(otherBody.json.Errors[0].ErrorCode).toBe('U006')
  })
})
