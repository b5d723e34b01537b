/**
 * A payment made through the sandbox's PIS is a transaction of its debtor account in AIS: through the
 * real sandbox servers (directory, registration, headless authorisation as Amelia, mutual TLS), pay
 * 10.00 from Amelia's current account, then read the account with an AIS consent of the same PSU:
 * the payment is pending (PDNG) at once, ITAV is 10.00 lower, it books under a new TransactionId when
 * the payment reaches ACSC, and a restart on the same data directory keeps it.
 */
import 'reflect-metadata'
import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startLocalSandbox, type RunningSandbox } from '../../../../src-main/local-sandbox/index.ts'
import { TestTpp, type HttpResponse, type RegisteredTestClient } from '../support/test-tpp.ts'
import { signDetached, type TppSigner } from './support/detached-sign.ts'
import { consentBody, paymentBody } from './support/pis-bodies.ts'

const AIS = '/open-banking/v4.0/aisp'
const PIS = '/open-banking/v4.0/pisp'
const PSU = { 'x-fapi-customer-ip-address': '198.51.100.23' }
const ACCOUNT = 'acc-amelia-current'
const HOUR_MS = 3_600_000

interface Tx {
  TransactionId: string
  TransactionReference: string
  Status: 'PDNG' | 'BOOK'
  CreditDebitIndicator: 'Credit' | 'Debit'
  BookingDateTime: string
  ValueDateTime: string
  TransactionInformation?: string
  Amount: { Amount: string; Currency: string }
  Balance?: { CreditDebitIndicator: string; Type: string; Amount: { Amount: string } }
  BankTransactionCode: { Code: string; SubCode: string }
  ProprietaryBankTransactionCode: { Code: string; Issuer: string }
  CreditorAccount?: Record<string, string>
}

/** Signed pence of an OB amount and its indicator. */
const pence = (amount: string, indicator: string) => Math.round(Number(amount) * 100) * (indicator === 'Debit' ? -1 : 1)

describe('a PIS payment in AIS (real sandbox servers)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ob-pis-in-ais-'))
  let sandbox: RunningSandbox
  let tpp: TestTpp
  let client: RegisteredTestClient
  let signer: TppSigner
  let aisToken: string

  const addresses = (s: RunningSandbox) => ({
    baseUrl: s.baseUrl,
    authUrl: s.authUrl,
    directoryUrl: s.directoryUrl,
    caBundlePem: s.caBundlePem,
  })

  beforeAll(async () => {
    sandbox = await startLocalSandbox({ dataDir, port: 0, log: () => {} })
    const kit = await sandbox.context.directory.onboard({ roles: ['AISP', 'PISP'] })
    tpp = new TestTpp(addresses(sandbox), kit)
    client = await tpp.register({
      overrides: { sandbox_profile: 'strict-headless', scope: 'openid accounts payments' },
    })
    signer = { kid: kit.signingKid, privateKey: await tpp.signingKey(), iss: `${kit.orgId}/${kit.softwareId}` }
    // The generated history puts nothing on a current account between 02:00 and 04:00 UTC (standing orders
    // and direct debits run before 02:00, card bookings from 04:00, spending from 07:00): at 02:30 Amelia's
    // ITAV moves only by the payment. The test checks that nothing else appeared.
    const now = sandbox.context.clock.nowMs()
    const target = Math.floor(now / (24 * HOUR_MS)) * 24 * HOUR_MS + 2.5 * HOUR_MS
    await sandbox.context.clock.advance((target > now ? target : target + 24 * HOUR_MS) - now)

    const cc = await tpp.clientCredentials(client, 'accounts')
    const permissions = [
      'ReadAccountsBasic',
      'ReadBalances',
      'ReadTransactionsDetail',
      'ReadTransactionsCredits',
      'ReadTransactionsDebits',
    ]
    const consent = await tpp.call('POST', `${sandbox.baseUrl}${AIS}/account-access-consents`, {
      headers: { authorization: `Bearer ${cc}`, 'content-type': 'application/json' },
      body: JSON.stringify({ Data: { Permissions: permissions }, Risk: {} }),
    })
    expect(consent.status, consent.text).toBe(201)
    const auth = await tpp.authoriseHeadless(client, consent.json.Data.ConsentId, 'openid accounts')
    expect(auth.code, auth.location).toBeTruthy()
    const exchanged = await tpp.exchangeCode(client, auth.code!)
    expect(exchanged.status, exchanged.text).toBe(200)
    aisToken = exchanged.json.access_token
  })
  afterAll(async () => {
    await tpp?.close()
    await sandbox?.stop()
    rmSync(dataDir, { recursive: true, force: true })
  })

  async function ais(path: string): Promise<HttpResponse> {
    const res = await tpp.call('GET', `${sandbox.baseUrl}${AIS}${path}`, {
      headers: { authorization: `Bearer ${aisToken}`, ...PSU },
    })
    expect(res.status, res.text).toBe(200)
    return res
  }
  const transactions = async (): Promise<Tx[]> => (await ais(`/accounts/${ACCOUNT}/transactions`)).json.Data.Transaction
  async function itav(): Promise<number> {
    const b = (await ais(`/accounts/${ACCOUNT}/balances`)).json.Data.Balance[0]
    expect(b.Type).toBe('ITAV')
    return pence(b.Amount.Amount, b.CreditDebitIndicator)
  }

  async function pis(method: 'GET' | 'POST', path: string, token: string, body?: string): Promise<HttpResponse> {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` }
    if (body !== undefined) {
      headers['content-type'] = 'application/json'
      headers['x-idempotency-key'] = randomUUID()
      headers['x-jws-signature'] = signDetached(body, signer)
    }
    return tpp.call(method, `${sandbox.baseUrl}${PIS}${path}`, { headers, body })
  }

  it('pending at once with ITAV 10.00 lower, booked under a new TransactionId at ACSC, kept after a restart', async () => {
    const itavBefore = await itav()
    const before = await transactions()

    // Pay 10.00 from Amelia's current account (the headless PSU approves; her current account is the debtor).
    const cc = await tpp.clientCredentials(client, 'payments')
    const body = consentBody('10.00')
    const created = await pis('POST', '/domestic-payment-consents', cc, JSON.stringify(body))
    expect(created.status, created.text).toBe(201)
    const consentId = created.json.Data.ConsentId as string
    const auth = await tpp.authoriseHeadless(client, consentId, 'openid payments')
    const exchanged = await tpp.exchangeCode(client, auth.code!)
    expect(exchanged.status, exchanged.text).toBe(200)
    const paid = await pis(
      'POST',
      '/domestic-payments',
      exchanged.json.access_token,
      JSON.stringify(paymentBody(consentId, body)),
    )
    expect(paid.status, paid.text).toBe(201)
    expect(paid.json.Data.Status).toBe('RCVD')
    const paymentId = paid.json.Data.DomesticPaymentId as string
    const details = await pis('GET', `/domestic-payments/${paymentId}/payment-details`, cc)
    const reference = details.json.Data.PaymentStatus[0].PaymentTransactionId as string

    // At once: a pending debit of 10.00, found by the payment's PaymentTransactionId.
    const after = await transactions()
    const pending = after.find((t) => t.TransactionReference === reference)
    expect(pending, `no transaction with TransactionReference ${reference}`).toBeDefined()
    expect(pending).toMatchObject({
      Status: 'PDNG',
      CreditDebitIndicator: 'Debit',
      Amount: { Amount: '10.00', Currency: 'GBP' },
      TransactionInformation: 'ACME LTD ACME-4711',
      BankTransactionCode: { Code: 'ICDT', SubCode: 'DMCT' },
      ProprietaryBankTransactionCode: { Code: 'FPO', Issuer: 'OBConsoleSandboxBank' },
      CreditorAccount: {
        SchemeName: 'UK.OBIE.SortCodeAccountNumber',
        Identification: '08080021325698',
        Name: 'ACME Ltd',
      },
      ValueDateTime: paid.json.Data.CreationDateTime,
      BookingDateTime: paid.json.Data.ExpectedSettlementDateTime,
    })
    expect(pending!.TransactionId).toMatch(/^ptx-/)
    expect(pending!.Balance).toBeUndefined()
    // Nothing else changed on the account in the meantime (the quiet hour), so ITAV moved by the payment alone.
    expect(after.filter((t) => t !== pending).map((t) => t.TransactionId)).toEqual(
      before.map((t) => t.TransactionId).slice(0, after.length - 1),
    )
    expect(await itav()).toBe(itavBefore - 1_000)

    // ACSC 10 s after creation: booked, with a new TransactionId and the running balance.
    await sandbox.context.clock.advance(10_000)
    expect((await pis('GET', `/domestic-payments/${paymentId}`, cc)).json.Data.Status).toBe('ACSC')
    const settled = await transactions()
    const booked = settled.find((t) => t.TransactionReference === reference)!
    expect(booked).toMatchObject({
      Status: 'BOOK',
      Amount: { Amount: '10.00' },
      BookingDateTime: pending!.BookingDateTime,
    })
    expect(booked.TransactionId).toMatch(/^tx-/)
    expect(booked.TransactionId).not.toBe(pending!.TransactionId)
    const olderBooked = settled.slice(settled.indexOf(booked) + 1).find((t) => t.Status === 'BOOK')!
    expect(pence(booked.Balance!.Amount.Amount, booked.Balance!.CreditDebitIndicator)).toBe(
      pence(olderBooked.Balance!.Amount.Amount, olderBooked.Balance!.CreditDebitIndicator) - 1_000,
    )
    expect(await itav()).toBe(itavBefore - 1_000)

    // A restart on the same data directory: the payment is posted again from the payment store.
    await tpp.close()
    await sandbox.stop()
    sandbox = await startLocalSandbox({ dataDir, port: 0, log: () => {} })
    tpp = new TestTpp(addresses(sandbox), tpp.kit)
    const restarted = await transactions()
    expect(restarted.find((t) => t.TransactionReference === reference)).toEqual(booked)
    expect(restarted).toEqual(settled)
    expect(await itav()).toBe(itavBefore - 1_000)
  })
})
