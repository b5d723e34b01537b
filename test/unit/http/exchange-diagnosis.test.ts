import { describe, expect, it } from 'vitest'
import type { ExchangeDto } from '../../../src-main/contract/exchange.ts'
import { diagnoseExchange } from '../../../src-main/http/exchange-diagnosis.ts'
import { ExchangeLog } from '../../../src-main/http/exchange-log.ts'
import { tokenExchange } from './exchange-fixture.ts'

const json = (v: unknown) => Buffer.from(JSON.stringify(v))
const answer = (
  status: number,
  body: unknown,
  url = 'https://rs.bank/open-banking/v4.0/pisp/domestic-payment-consents',
  headers: Array<[string, string]> = [['content-type', 'application/json']],
) => {
  const log = new ExchangeLog()
  const id = log.record(
    tokenExchange({
      request: { method: 'POST', url, headers: [['content-type', 'application/json']], body: json({ Data: {} }) },
      response: { status, headers, body: typeof body === 'string' ? Buffer.from(body) : json(body) },
    }),
  )
  return log.get(id)
}

describe('diagnoseExchange', () => {
  it('explains each Open Banking Errors[].ErrorCode with its v3.1 name, and points at the error structure and message signing', () => {
    const x = answer(400, {
      Code: '400',
      Message: 'Bad request',
      Errors: [
        { ErrorCode: 'U002', Message: 'Currency is not GBP', Path: 'Data.Initiation.InstructedAmount.Currency' },
        { ErrorCode: 'U015', Message: 'bad signature' },
      ],
    })
    const d = x.diagnosis!
    expect(d.outcome).toBe('failed')
    expect(d.error?.code).toBe('OB_ERROR')
    expect(d.summary).toBe('400: U002 UK.OBIE.Field.Invalid, U015 UK.OBIE.Signature.Invalid.')
    expect(d.error?.problems?.[0]).toMatchObject({
      path: 'Data.Initiation.InstructedAmount.Currency',
      explanation: expect.stringMatching(/not allowed/),
    })
    expect(d.error?.problems?.[1]?.explanation).toMatch(/x-jws-signature does not verify/)
    expect(d.spec.map((r) => r.section)).toEqual([
      expect.stringMatching(/Error Response Structure/),
      expect.stringMatching(/Message Signing/),
      expect.stringMatching(/§4\.3 PIS/),
    ])
  })

  it('reads OAuth and DCR errors with their RFC sections, and a bearer refusal from WWW-Authenticate', () => {
    const token = answer(401, { error: 'invalid_client', error_description: 'assertion aud' }, 'https://as.bank/token')
    expect(token.diagnosis).toMatchObject({
      outcome: 'failed',
      error: { code: 'OAUTH_ERROR', cause: 'invalid_client: assertion aud' },
    })
    expect(token.diagnosis!.spec.map((r) => r.document)).toEqual([
      'RFC 6749',
      'RFC 7523',
      'RFC 8705',
      "The bank's interface specification",
    ])
    expect(token.diagnosis!.spec[0]!.url).toBe('https://www.rfc-editor.org/rfc/rfc6749#section-5.2')
    const dcr = answer(
      400,
      { error: 'invalid_redirect_uri', error_description: 'not in SSA' },
      'https://as.bank/dynamic-client-registration/v3.2/register',
    )
    expect(dcr.diagnosis).toMatchObject({
      error: { code: 'DCR_ERROR', fix: expect.stringMatching(/software_redirect_uris/) },
    })
    expect(dcr.diagnosis!.spec[0]!.section).toMatch(/§3\.2\.2/)
    const bearer = answer(401, '', 'https://rs.bank/open-banking/v4.0/aisp/accounts', [
      ['www-authenticate', 'Bearer error="invalid_token", error_description="expired"'],
    ])
    expect(bearer.diagnosis).toMatchObject({
      error: { code: 'OAUTH_ERROR', cause: 'invalid_token: expired' },
      spec: [{ document: 'RFC 6750' }],
    })
  })

  it('explains a bare status, with Retry-After read at the time of the exchange', () => {
    const x = answer(429, '', 'https://rs.bank/open-banking/v4.0/aisp/accounts', [['retry-after', '120']])
    expect(x.diagnosis).toMatchObject({
      outcome: 'failed',
      error: { code: 'HTTP_ERROR', fix: expect.stringMatching(/Retry-After/) },
    })
    expect(x.diagnosis!.spec.map((r) => r.section)).toEqual(['HTTP Status Codes', expect.stringMatching(/§8 Limits/)])
  })

  it('gives a transport failure its recorded error and, for a POST, the idempotency rule', () => {
    const log = new ExchangeLog()
    const id = log.record(
      tokenExchange({
        response: undefined,
        error: {
          code: 'TIMEOUT',
          what: 'POST failed',
          cause: 'the bank sent no headers within 30000 ms',
          fix: 'retry later',
        },
      }),
    )
    const d = log.get(id).diagnosis!
    expect(d).toMatchObject({
      outcome: 'failed',
      summary: 'No answer: The bank sent no headers within 30000 ms.',
      error: { code: 'TIMEOUT' },
    })
    expect(d.spec[0]!.section).toMatch(/Idempotency/)
  })

  it("reads an authorisation server's refusal from the redirect, and says ok for a plain redirect and a 2xx", () => {
    const redirect = (location: string): ExchangeDto => ({
      ...answer(200, {}),
      response: { status: 302, headers: [['location', location]] },
    })
    const refused = diagnoseExchange(
      redirect('https://tpp/cb#error=access_denied&error_description=PSU%20said%20no&state=s'),
    )
    expect(refused).toMatchObject({
      outcome: 'failed',
      error: {
        code: 'OAUTH_ERROR',
        cause: 'access_denied: PSU said no',
        fix: expect.stringMatching(/consent is now rejected/),
      },
    })
    expect(refused.spec[0]!.section).toMatch(/§4\.1\.2\.1/)
    expect(diagnoseExchange(redirect('https://tpp/cb#code=c&state=s'))).toEqual({
      outcome: 'ok',
      summary: '302: a redirect to https://tpp/cb.',
      spec: [],
    })
    expect(answer(201, { Data: {} }).diagnosis).toEqual({
      outcome: 'ok',
      summary: '201: answered without an error.',
      spec: [],
    })
  })

  it('says when the error body is no longer kept, and quotes nothing the masked view hides', () => {
    const x = answer(400, { error: 'invalid_grant', error_description: 'code abc' }, 'https://as.bank/token')
    const dropped: ExchangeDto = {
      ...x,
      response: {
        ...x.response!,
        body: { text: '', encoding: 'utf8', size: 80, truncated: false, dropped: { reason: 'no longer kept' } },
      },
    }
    expect(diagnoseExchange(dropped)).toMatchObject({
      error: { code: 'HTTP_ERROR', cause: expect.stringMatching(/no longer kept/) },
    })
    const secret = answer(
      400,
      { error: 'invalid_request', error_description: 'bad', access_token: 'tok-SECRET-1234567890abcdef' },
      'https://as.bank/token',
    )
    expect(JSON.stringify(secret.diagnosis)).not.toContain('tok-SECRET-1234567890abcdef')
  })
})
