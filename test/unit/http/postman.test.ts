import { describe, expect, it } from 'vitest'
import { ExchangeLog } from '../../../src-main/http/exchange-log.ts'
import { POSTMAN_V21_SCHEMA, toPostmanCollection } from '../../../src-main/http/postman.ts'
import { readCollection, type PostmanSdkItem } from '../../support/postman-sdk.ts'
import { b64, tokenExchange } from './exchange-fixture.ts'

const jws = `${b64({ alg: 'PS256', kid: 'sig-1', b64: false, crit: ['b64'] })}..ZGV0YWNoZWQ`

describe('toPostmanCollection', () => {
  it("writes a v2.1 collection Postman's own SDK reads back: requests in order, masked secrets, signing steps described", () => {
    const log = new ExchangeLog()
    const token = log.record(tokenExchange())
    const payment = log.record(
      tokenExchange({
        label: 'payment consent',
        request: {
          method: 'POST',
          url: 'https://127.0.0.1:8443/open-banking/v4.0/pisp/domestic-payment-consents?x=1',
          headers: [
            ['content-type', 'application/json'],
            ['authorization', 'Bearer opaque-access-token-123456789'],
            ['x-jws-signature', jws],
            ['content-length', '20'],
            ['host', '127.0.0.1:8443'],
          ],
          body: Buffer.from('{"Data":{"A":"1"}}'),
        },
      }),
    )
    const views = [log.get(token), log.get(payment)]
    const json = toPostmanCollection(views, 'PIS journey')
    expect(json.info.schema).toBe(POSTMAN_V21_SCHEMA)

    const back = readCollection(json)
    const items = back.items.all()
    expect(items.map((i: PostmanSdkItem) => i.name)).toEqual([
      '1. token (client_credentials): POST /token',
      '2. payment consent: POST /open-banking/v4.0/pisp/domestic-payment-consents',
    ])
    const [first, second] = items
    expect(first!.request.method).toBe('POST')
    expect(first!.request.url.toString()).toBe('https://127.0.0.1:8443/token')
    expect(second!.request.url.toString()).toBe(
      'https://127.0.0.1:8443/open-banking/v4.0/pisp/domestic-payment-consents?x=1',
    )
    expect(second!.request.headers.get('x-fapi-interaction-id')).toBeUndefined()
    expect(second!.request.headers.has('content-length')).toBe(false)
    expect(second!.request.headers.has('host')).toBe(false)
    expect(second!.request.body?.raw).toBe('{"Data":{"A":"1"}}')
    expect((back.toJSON() as { item: unknown[] }).item).toHaveLength(2)

    // Masked as the views are: no token, assertion signature or Basic credential in the collection.
    const text = JSON.stringify(json)
    for (const secret of ['opaque-access-token-123456789', 'Y2xpZW50OnNlY3JldA==', 'c2lnbmF0dXJl'])
      expect(text).not.toContain(secret)
    expect(json.info.description).toMatch(/Secrets are masked/)

    const describeOf = (i: number) => String(json.item[i]!.request.description)
    expect(describeOf(0)).toMatch(/client_assertion`: a JWT signed PS256 with the key of kid `k`; make a new one/)
    expect(describeOf(0)).toMatch(/Mutual TLS: the client certificate CN=s,OU=o was presented/)
    expect(describeOf(1)).toMatch(
      /x-jws-signature`: a detached JWS \(PS256\) with the key of kid `sig-1` over the exact request body/,
    )
    expect(second!.request.description?.toString()).toContain('Signing: Postman cannot sign')
  })

  it('says when no secret is masked, and gives no signing step for a request without a JWT', () => {
    const log = new ExchangeLog()
    const id = log.record(
      tokenExchange({
        request: { method: 'GET', url: 'https://127.0.0.1:8443/.well-known/openid-configuration', headers: [] },
        presentedCertificate: null,
      }),
    )
    const json = toPostmanCollection([log.get(id, { raw: true })], 'discovery')
    expect(json.info.description).toMatch(/No secret in these requests is masked/)
    expect(json.item[0]!.request.description).not.toMatch(/Signing|Mutual TLS/)
    expect(json.item[0]!.request.body).toBeUndefined()
  })

  it('keeps the query as sent, encoded, so the URL Postman sends is the same', () => {
    const log = new ExchangeLog()
    const raw =
      'https://127.0.0.1:8443/auth?response_type=code+id_token&redirect_uri=http%3A%2F%2F127.0.0.1%3A1%2Fcb&flag'
    const id = log.record(tokenExchange({ request: { method: 'GET', url: raw, headers: [] } }))
    const json = toPostmanCollection([log.get(id, { raw: true })], 'auth')
    expect(json.item[0]!.request.url.query).toEqual([
      { key: 'response_type', value: 'code+id_token' },
      { key: 'redirect_uri', value: 'http%3A%2F%2F127.0.0.1%3A1%2Fcb' },
      { key: 'flag', value: null },
    ])
    expect(readCollection(json).items.all()[0]!.request.url.toString()).toBe(raw)
  })
})
