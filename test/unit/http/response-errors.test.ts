import { describe, expect, it } from 'vitest'
import { explainErrorResponse, type ErrorResponseInput } from '../../../src-main/http/response-errors.ts'

const res = (status: number, body: unknown, headers: Array<[string, string]> = []): ErrorResponseInput => ({
  method: 'POST',
  url: 'https://bank/x',
  status,
  headers,
  bodyText: typeof body === 'string' ? body : JSON.stringify(body),
})

describe('explainErrorResponse', () => {
  it('is undefined for successful responses', () => {
    expect(explainErrorResponse(res(201, {}))).toBeUndefined()
    expect(explainErrorResponse(res(302, ''))).toBeUndefined()
  })

  it('explains every Open Banking error entry, v4.0 code and v3.1 name', () => {
    const err = explainErrorResponse(
      res(
        400,
        {
          Id: 'i',
          Code: '400',
          Message: 'm',
          Errors: [
            {
              ErrorCode: 'U004',
              Message: 'UK.OBIE.Field.Missing - Data.Initiation is missing',
              Path: 'Data.Initiation',
            },
            { ErrorCode: 'UK.OBIE.Signature.Invalid', Message: 'bad signature' },
          ],
        },
        [['x-fapi-interaction-id', 'abc']],
      ),
    )!
    expect(err.code).toBe('OB_ERROR')
    expect(err.what).toBe('POST https://bank/x answered 400')
    expect(err.cause).toMatch(
      /^U004 UK.OBIE.Field.Missing: UK.OBIE.Field.Missing - Data.Initiation is missing \(and 1 more\)/,
    )
    expect(err.problems).toHaveLength(2)
    expect(err.problems![0]).toMatchObject({ path: 'Data.Initiation' })
    expect(err.problems![1]!.code).toBe('U015 (UK.OBIE.Signature.Invalid)')
    expect(err.problems![1]!.explanation).toMatch(/bytes signed/)
    expect(err.details).toMatchObject({ status: 400, interactionId: 'abc' })
  })

  it('explains DCR errors', () => {
    const err = explainErrorResponse(
      res(400, { error: 'invalid_redirect_uri', error_description: 'https://x not in SSA' }),
      'dcr',
    )!
    expect(err.code).toBe('DCR_ERROR')
    expect(err.cause).toBe('invalid_redirect_uri: https://x not in SSA')
    expect(err.fix).toMatch(/software_redirect_uris/)
    expect(explainErrorResponse(res(400, { error: 'unapproved_software_statement' }))!.code).toBe('DCR_ERROR')
  })

  it('explains OAuth errors from the body or from WWW-Authenticate', () => {
    const err = explainErrorResponse(res(401, { error: 'invalid_client', error_description: 'aud mismatch' }), 'oauth')!
    expect(err.code).toBe('OAUTH_ERROR')
    expect(err.fix).toMatch(/aud \(must be the token endpoint\)/)
    expect(explainErrorResponse(res(400, { error: 'invalid_grant' }))!.fix).toMatch(/single-use/)
    const bearer = explainErrorResponse(
      res(401, '', [['www-authenticate', 'Bearer error="invalid_token", error_description="expired"']]),
    )!
    expect(bearer.code).toBe('OAUTH_ERROR')
    expect(bearer.cause).toBe('invalid_token: expired')
  })

  it('explains bare statuses, with Retry-After', () => {
    const e401 = explainErrorResponse(res(401, ''), 'ob')!
    expect(e401.code).toBe('HTTP_ERROR')
    expect(e401.cause).toMatch(/Open Banking sends no body with 401/)
    const e429 = explainErrorResponse(res(429, '', [['retry-after', '30']]))!
    expect(e429.fix).toMatch(/Retry-After: 30 s/)
    expect(e429.details?.retryAfter).toBe('30')
    expect(explainErrorResponse(res(418, 'teapot'))!.cause).toBe('the server refused the request')
  })
})

describe('explainErrorResponse: what it does not know', () => {
  it('says an ErrorCode outside the v4.0 list is outside it', () => {
    const e = explainErrorResponse(res(400, { Errors: [{ ErrorCode: 'X999', Message: 'Computer says no' }] }))!
    expect(e.code).toBe('OB_ERROR')
    expect(e.cause).toMatch(/^X999 \(outside the Open Banking v4\.0 list\): Computer says no/)
    expect(e.fix).toMatch(/"X999" is not an Open Banking v4\.0 error code/)
    expect(e.problems![0]!.explanation).toMatch(/the bank's own code/)
  })

  it("explains a 429 without the PSU-absent limit of account information (that sentence is the AIS calls')", () => {
    const e = explainErrorResponse(res(429, ''))!
    expect(e.cause).toMatch(/too many requests/)
    expect(`${e.cause} ${e.fix}`).not.toMatch(/PSU|4 times/)
  })
})
