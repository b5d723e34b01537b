import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { consentBody, paymentBody, type ConsentBody } from './support/pis-bodies.ts'
import type { CallOptions, PisClient, PisResponse } from './support/pis-client.ts'
import { startPisHarness, type PisHarness } from './support/pis-harness.ts'
import { verifyResponseSignature } from './support/verify-response.ts'

type Init = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

interface BadInput {
  name: string
  /** Mutates a valid consent body. */
  edit?: (b: ConsentBody & { Data: { Initiation: Init } }) => void
  /** Sends this raw body instead. */
  raw?: string
  send?: (tpp: PisClient, body: string) => Promise<PisResponse>
  status: number
  code: string
  path?: string
  message?: RegExp
}

const INIT = 'Data.Initiation'

const CASES: BadInput[] = [
  {
    name: 'currency other than GBP',
    edit: (b) => {
      b.Data.Initiation.InstructedAmount.Currency = 'EUR'
    },
    status: 400,
    code: 'U023',
    path: `${INIT}.InstructedAmount.Currency`,
    message: /GBP only/,
  },
  {
    name: 'currency in lower case',
    edit: (b) => {
      b.Data.Initiation.InstructedAmount.Currency = 'gbp'
    },
    status: 400,
    code: 'U002',
    path: `${INIT}.InstructedAmount.Currency`,
  },
  {
    name: 'missing InstructionIdentification',
    edit: (b) => {
      delete b.Data.Initiation.InstructionIdentification
    },
    status: 400,
    code: 'U004',
    path: `${INIT}.InstructionIdentification`,
  },
  {
    name: 'missing CreditorAccount.Name',
    edit: (b) => {
      delete b.Data.Initiation.CreditorAccount.Name
    },
    status: 400,
    code: 'U004',
    path: `${INIT}.CreditorAccount.Name`,
  },
  {
    name: 'missing Risk',
    edit: (b) => {
      delete (b as Partial<ConsentBody>).Risk
    },
    status: 400,
    code: 'U004',
    path: 'Risk',
  },
  {
    name: 'unexpected field in Initiation',
    edit: (b) => {
      b.Data.Initiation.Priority = 'High'
    },
    status: 400,
    code: 'U005',
    path: `${INIT}.Priority`,
  },
  {
    name: 'v3.1 RemittanceInformation.Reference',
    edit: (b) => {
      b.Data.Initiation.RemittanceInformation.Reference = 'FRESCO-101'
    },
    status: 400,
    code: 'U005',
    path: `${INIT}.RemittanceInformation.Reference`,
    message: /Structured\[\]\.CreditorReferenceInformation\.Reference/,
  },
  {
    name: 'v3.1 Unstructured as a string',
    edit: (b) => {
      b.Data.Initiation.RemittanceInformation.Unstructured = 'Order 4711'
    },
    status: 400,
    code: 'U002',
    path: `${INIT}.RemittanceInformation.Unstructured`,
  },
  {
    name: 'Unstructured line over 140 characters',
    edit: (b) => {
      b.Data.Initiation.RemittanceInformation.Unstructured = ['x'.repeat(141)]
    },
    status: 400,
    code: 'U002',
    path: `${INIT}.RemittanceInformation.Unstructured[0]`,
  },
  {
    name: 'amount with a comma',
    edit: (b) => {
      b.Data.Initiation.InstructedAmount.Amount = '12,50'
    },
    status: 400,
    code: 'U002',
    path: `${INIT}.InstructedAmount.Amount`,
  },
  {
    name: 'amount as a number',
    edit: (b) => {
      b.Data.Initiation.InstructedAmount.Amount = 12.5
    },
    status: 400,
    code: 'U002',
    path: `${INIT}.InstructedAmount.Amount`,
  },
  {
    name: 'GBP amount with 3 decimals',
    edit: (b) => {
      b.Data.Initiation.InstructedAmount.Amount = '12.505'
    },
    status: 400,
    code: 'U002',
    path: `${INIT}.InstructedAmount.Amount`,
    message: /at most 2/,
  },
  {
    name: 'zero amount',
    edit: (b) => {
      b.Data.Initiation.InstructedAmount.Amount = '0.00'
    },
    status: 400,
    code: 'U002',
    path: `${INIT}.InstructedAmount.Amount`,
    message: /greater than zero/,
  },
  {
    name: 'unsupported local instrument',
    edit: (b) => {
      b.Data.Initiation.LocalInstrument = 'UK.OBIE.SEPACreditTransfer'
    },
    status: 400,
    code: 'U026',
    path: `${INIT}.LocalInstrument`,
  },
  {
    name: 'unsupported account scheme',
    edit: (b) => {
      b.Data.Initiation.CreditorAccount.SchemeName = 'UK.OBIE.PAN'
    },
    status: 400,
    code: 'U027',
    path: `${INIT}.CreditorAccount.SchemeName`,
  },
  {
    name: 'sort code and account number with dashes',
    edit: (b) => {
      b.Data.Initiation.CreditorAccount.Identification = '08-08-00 21325698'
    },
    status: 400,
    code: 'U021',
    path: `${INIT}.CreditorAccount.Identification`,
    message: /14 digits/,
  },
  {
    name: 'IBAN with a bad check digit',
    edit: (b) => {
      Object.assign(b.Data.Initiation.CreditorAccount, {
        SchemeName: 'UK.OBIE.IBAN',
        Identification: 'GB82WEST12345698765433',
      })
    },
    status: 400,
    code: 'U021',
    path: `${INIT}.CreditorAccount.Identification`,
  },
  {
    name: 'debtor account without Identification',
    edit: (b) => {
      b.Data.Initiation.DebtorAccount = { SchemeName: 'UK.OBIE.SortCodeAccountNumber' }
    },
    status: 400,
    code: 'U004',
    path: `${INIT}.DebtorAccount.Identification`,
  },
  {
    name: 'v3.1 PaymentContextCode',
    edit: (b) => {
      b.Risk.PaymentContextCode = 'PartyToParty'
    },
    status: 400,
    code: 'U002',
    path: 'Risk.PaymentContextCode',
    message: /v3.1 value that v4.0 removed/,
  },
  {
    name: 'ReadRefundAccount not Yes/No',
    edit: (b) => {
      b.Data.ReadRefundAccount = 'Maybe'
    },
    status: 400,
    code: 'U002',
    path: 'Data.ReadRefundAccount',
  },
  {
    name: 'InstructionIdentification over 35 characters',
    edit: (b) => {
      b.Data.Initiation.InstructionIdentification = 'I'.repeat(36)
    },
    status: 400,
    code: 'U002',
    path: `${INIT}.InstructionIdentification`,
  },
  {
    name: 'CompletionDateTime not a date-time',
    edit: (b) => {
      b.Data.Authorisation = { AuthorisationType: 'Single', CompletionDateTime: 'tomorrow' }
    },
    status: 400,
    code: 'U003',
    path: 'Data.Authorisation.CompletionDateTime',
  },
  {
    name: 'CompletionDateTime in the past',
    edit: (b) => {
      b.Data.Authorisation = { AuthorisationType: 'Any', CompletionDateTime: '2020-01-01T00:00:00+00:00' }
    },
    status: 400,
    code: 'U003',
    path: 'Data.Authorisation.CompletionDateTime',
  },
  { name: 'body that is not JSON', raw: '{"Data": ', status: 400, code: 'U002', message: /not valid JSON/ },
  {
    name: 'body that is a JSON array',
    raw: '[]',
    status: 400,
    code: 'U002',
    message: /the body must be a JSON object/,
  },
  { name: 'empty body', raw: '', status: 400, code: 'U002', message: /empty/ },
  {
    name: 'Content-Type text/plain',
    send: (tpp, body) => tpp.createConsent(body, { headers: { 'content-type': 'text/plain' } }),
    status: 415,
    code: 'U006',
    path: 'Content-Type',
  },
  {
    name: 'Content-Type with a charset other than UTF-8',
    send: (tpp, body) =>
      tpp.createConsent(body, { headers: { 'content-type': 'application/json; charset=iso-8859-1' } }),
    status: 415,
    code: 'U006',
    path: 'Content-Type',
  },
  {
    name: 'POST without any body',
    send: (tpp) => tpp.call('POST', '/domestic-payment-consents', { token: tpp.ccToken() }),
    status: 400,
    code: 'U002',
    message: /body is empty/,
  },
  {
    name: 'encrypted body media type',
    send: (tpp, body) => tpp.createConsent(body, { headers: { 'content-type': 'application/jose+jwe' } }),
    status: 415,
    code: 'U006',
    path: 'Content-Type',
    message: /not supported/,
  },
  {
    name: 'Accept application/xml',
    send: (tpp, body) => tpp.createConsent(body, { headers: { accept: 'application/xml' } }),
    status: 406,
    code: 'U006',
    path: 'Accept',
  },
  {
    name: 'endpoint the sandbox does not implement',
    send: (tpp) => tpp.call('GET', '/domestic-scheduled-payments/x', { token: tpp.ccToken() }),
    status: 404,
    code: 'U011',
    message: /domestic-payment-consents/,
  },
  {
    name: 'PUT on the consents collection',
    send: (tpp, body) => tpp.call('PUT', '/domestic-payment-consents', { token: tpp.ccToken(), body }),
    status: 405,
    code: 'U011',
    message: /allowed: POST/,
  },
  {
    name: 'DELETE on a consent (payment consents cannot be revoked)',
    send: (tpp) => tpp.call('DELETE', '/domestic-payment-consents/sdp-1', { token: tpp.ccToken() }),
    status: 405,
    code: 'U011',
    message: /allowed: GET/,
  },
  {
    name: 'consent id in the path that is not valid percent-encoding',
    send: (tpp) => tpp.call('GET', '/domestic-payment-consents/sdp-%E0%A4%A', { token: tpp.ccToken() }),
    status: 400,
    code: 'U002',
    path: 'ConsentId',
    message: /not valid percent-encoding/,
  },
  {
    name: 'payment id in the path over 128 characters',
    send: (tpp) => tpp.call('GET', `/domestic-payments/${'p'.repeat(129)}/payment-details`, { token: tpp.ccToken() }),
    status: 400,
    code: 'U002',
    path: 'DomesticPaymentId',
    message: /129 characters long/,
  },
  {
    name: 'payment without ConsentId',
    send: (tpp, body) => {
      const pay = paymentBody('sdp-x', JSON.parse(body)) as { Data: Record<string, unknown> }
      delete pay.Data.ConsentId
      return tpp.createPayment('sdp-x', pay)
    },
    status: 400,
    code: 'U004',
    path: 'Data.ConsentId',
  },
  {
    name: 'payment with an unexpected Data field',
    send: (tpp, body) => {
      const pay = paymentBody('sdp-x', JSON.parse(body)) as { Data: Record<string, unknown> }
      pay.Data.Status = 'AUTH'
      return tpp.createPayment('sdp-x', pay)
    },
    status: 400,
    code: 'U005',
    path: 'Data.Status',
  },
  {
    name: 'payment for an unknown consent',
    send: (tpp, body) => tpp.createPayment('sdp-unknown', paymentBody('sdp-unknown', JSON.parse(body))),
    status: 400,
    code: 'U011',
    path: 'Data.ConsentId',
  },
]

describe('PIS bad inputs: status and error code for each', () => {
  let h: PisHarness
  let tpp: PisClient

  beforeAll(async () => {
    h = await startPisHarness()
    tpp = await h.onboard()
  })
  afterAll(async () => h?.stop())

  it(`has at least 15 cases (${CASES.length})`, () => {
    expect(CASES.length).toBeGreaterThanOrEqual(15)
  })

  for (const c of CASES) {
    it(`${c.name} -> ${c.status} ${c.code}`, async () => {
      const valid = consentBody()
      c.edit?.(valid as ConsentBody & { Data: { Initiation: Init } })
      const body = c.raw ?? JSON.stringify(valid)
      const opts: CallOptions = {}
      const res = c.send ? await c.send(tpp, body) : await tpp.createConsent(body, opts)
      expect(res.status, res.text).toBe(c.status)
      const error = res.json.Errors.find(
        (e: { ErrorCode: string; Path?: string }) =>
          e.ErrorCode === c.code && (c.path === undefined || e.Path === c.path),
      )
      expect(error, res.text).toBeDefined()
      if (c.message) expect(error.Message).toMatch(c.message)
      expect(error.Message).toMatch(/^UK\.OBIE\.[A-Za-z.]+ - /)
      expect(res.json.Id).toBe(res.headers['x-fapi-interaction-id'])
      await verifyResponseSignature(res, h.context.signingKey.publicJwks)
    })
  }

  it('405 carries an Allow header; nothing above was a 500 and the server still serves', async () => {
    const res = await tpp.call('PUT', '/domestic-payments', { token: tpp.ccToken(), body: '{}' })
    expect(res.status).toBe(405)
    expect(res.headers.allow).toBe('POST')
    expect(h.logs.filter((l) => l.includes('unexpected error'))).toEqual([])
    expect((await tpp.createConsent(consentBody())).status).toBe(201)
  })

  it('reports several schema problems in one response', async () => {
    const b = consentBody() as ConsentBody & { Data: { Initiation: Init } }
    delete b.Data.Initiation.EndToEndIdentification
    b.Data.Initiation.Extra = 1
    b.Risk.PaymentContextCode = 'Other'
    const res = await tpp.createConsent(b)
    expect(res.status).toBe(400)
    const codes = res.json.Errors.map((e: { ErrorCode: string; Path: string }) => `${e.ErrorCode} ${e.Path}`)
    expect(codes).toEqual(
      expect.arrayContaining([
        `U004 ${INIT}.EndToEndIdentification`,
        `U005 ${INIT}.Extra`,
        'U002 Risk.PaymentContextCode',
      ]),
    )
  })
})
