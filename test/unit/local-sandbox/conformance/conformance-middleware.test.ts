import { describe, expect, it } from 'vitest'
import { forbiddenHeaderProblems } from '../../../../src-main/local-sandbox/conformance/conformance-middleware.ts'

describe('forbidden headers', () => {
  const ctx = (method: string, path: string, headers: Record<string, string>, querystring = '') => ({
    method,
    path,
    querystring,
    get: (h: string) => headers[h.toLowerCase()] ?? '',
  })
  const AIS = '/open-banking/v4.0/aisp/accounts'
  const PIS = '/open-banking/v4.0/pisp/domestic-payments'

  it('none on a clean call', () => {
    expect(forbiddenHeaderProblems(ctx('GET', AIS, { authorization: 'Bearer x' }))).toEqual([])
    expect(
      forbiddenHeaderProblems(
        ctx('POST', PIS, { 'x-idempotency-key': 'k', 'x-jws-signature': 's', 'content-type': 'application/json' }),
      ),
    ).toEqual([])
  })

  it('each one named', () => {
    for (const query of ['access_token=t', 'page=2&access_token=', 'access%5Ftoken=t'])
      expect(forbiddenHeaderProblems(ctx('GET', AIS, {}, query))[0]).toContain('access token is in the query string')
    expect(forbiddenHeaderProblems(ctx('GET', AIS, {}, 'page=2&my_access_token=t'))).toEqual([])
    expect(forbiddenHeaderProblems(ctx('GET', AIS, { 'x-fapi-financial-id': 'x' }))[0]).toContain('x-fapi-financial-id')
    expect(forbiddenHeaderProblems(ctx('POST', AIS, { 'x-jws-signature': 's' }))[0]).toContain(
      'x-jws-signature is sent on an AIS call',
    )
    expect(forbiddenHeaderProblems(ctx('POST', AIS, { 'x-idempotency-key': 'k' }))[0]).toContain(
      'AIS is not idempotent',
    )
    expect(
      forbiddenHeaderProblems(
        ctx('GET', '/open-banking/v4.0/pisp/domestic-payments/p1', { 'x-idempotency-key': 'k' }),
      )[0],
    ).toContain('on a GET')
    expect(forbiddenHeaderProblems(ctx('DELETE', AIS, { 'content-type': 'application/json' }))[0]).toContain(
      'Content-Type is sent on a DELETE',
    )
  })
})
