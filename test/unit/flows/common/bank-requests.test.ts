import { describe, expect, it } from 'vitest'
import { apiUrl, bearerGet, bearerPost } from '../../../../src-main/flows/common/bank-requests.ts'
import { fakeFlow } from '../flow-fixture.ts'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

describe('requests to the bank with a bearer token', () => {
  it('builds the URL of an API from the environment', () => {
    const { ctx } = fakeFlow(() => ({ status: 200 }))
    expect(apiUrl(ctx, 'ais', '/accounts')).toBe('https://bank.example/aisp/accounts')
    expect(apiUrl(ctx, 'pis', '/domestic-payments/p1')).toBe('https://bank.example/pisp/domestic-payments/p1')
  })

  it('GET: the token first, a fresh interaction id each time, extra headers last; the exchange noted', async () => {
    const { ctx, sent, scope, exchanges } = fakeFlow(() => ({ status: 200 }))
    const res = await bearerGet(ctx, scope, 'https://bank.example/a', 'at-1', 'accounts', {
      'x-fapi-customer-ip-address': '10.0.0.1',
    })
    await bearerGet(ctx, scope, 'https://bank.example/b', 'at-1', 'balances')
    expect(res.exchangeId).toBe('x1')
    expect(exchanges).toEqual(['x1', 'x2'])
    expect(sent[0]).toMatchObject({ method: 'GET', url: 'https://bank.example/a', label: 'accounts' })
    expect(Object.keys(sent[0]!.headers!)).toEqual([
      'authorization',
      'accept',
      'x-fapi-interaction-id',
      'x-fapi-customer-ip-address',
    ])
    expect(sent[0]!.headers!.authorization).toBe('Bearer at-1')
    expect(sent[0]!.headers!['x-fapi-interaction-id']).toMatch(UUID)
    expect(sent[1]!.headers!['x-fapi-interaction-id']).not.toBe(sent[0]!.headers!['x-fapi-interaction-id'])
    expect(sent[0]).not.toHaveProperty('retry')
  })

  it('POST: the body sent as given, its headers before the interaction id, retried only when asked', async () => {
    const { ctx, sent, scope, exchanges } = fakeFlow(() => ({ status: 201 }))
    const body = '{"Data":{"Permissions":["ReadAccountsBasic"]},"Risk":{}}'
    await bearerPost(ctx, scope, 'https://bank.example/c', 'at-2', body, 'consent')
    await bearerPost(ctx, scope, 'https://bank.example/p', 'at-3', '{}', 'payment', {
      headers: { 'x-idempotency-key': 'k-1', 'x-jws-signature': 'h..s' },
      retry: true,
    })
    expect(exchanges).toEqual(['x1', 'x2'])
    expect(sent[0]).toMatchObject({ method: 'POST', body, label: 'consent' })
    expect(sent[0]).not.toHaveProperty('retry')
    expect(Object.keys(sent[0]!.headers!)).toEqual(['authorization', 'content-type', 'accept', 'x-fapi-interaction-id'])
    expect(sent[1]).toMatchObject({ retry: true, body: '{}' })
    expect(sent[1]!.headers).toMatchObject({
      authorization: 'Bearer at-3',
      'content-type': 'application/json',
      'x-idempotency-key': 'k-1',
      'x-jws-signature': 'h..s',
    })
    expect(Object.keys(sent[1]!.headers!).slice(-3)).toEqual([
      'x-idempotency-key',
      'x-jws-signature',
      'x-fapi-interaction-id',
    ])
  })
})
