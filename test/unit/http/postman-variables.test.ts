import { describe, expect, it } from 'vitest'
import { ExchangeLog } from '../../../src-main/http/exchange-log.ts'
import { toPostmanCollection } from '../../../src-main/http/postman.ts'
import { templateExchanges, toPostmanEnvironment } from '../../../src-main/http/postman-variables.ts'
import { readCollection } from '../../support/postman-sdk.ts'
import { assertion, tokenExchange } from './exchange-fixture.ts'

const BASE = 'https://127.0.0.1:8443'
const AUTH = 'https://127.0.0.1:8444'
const PSU_TOKEN = 'psu-access-token-0123456789abcdef0123456789'
const CC_TOKEN = 'client-credentials-token-0123456789abcdefgh'
const json = (v: unknown) => Buffer.from(JSON.stringify(v))

/** A client-credentials token, a consent, the code exchange, the accounts and one account's balances. */
function run(): ExchangeLog {
  const log = new ExchangeLog()
  const form = (grant: string, extra: string) =>
    Buffer.from(
      `grant_type=${grant}&client_id=client-0001&client_assertion_type=urn%3Aietf%3Aparams%3Aoauth%3Aclient-assertion-type%3Ajwt-bearer&client_assertion=${assertion}${extra}`,
    )
  const answer = (body: unknown, status = 200) => ({
    status,
    headers: [['content-type', 'application/json']] as Array<[string, string]>,
    body: json(body),
  })
  const get = (url: string, token: string, body: unknown) =>
    tokenExchange({
      label: url,
      request: { method: 'GET', url, headers: [['authorization', `Bearer ${token}`]] },
      response: answer(body),
    })
  log.record(
    tokenExchange({
      request: {
        method: 'POST',
        url: `${AUTH}/token`,
        headers: [['content-type', 'application/x-www-form-urlencoded']],
        body: form('client_credentials', '&scope=accounts'),
      },
      response: answer({ access_token: CC_TOKEN, token_type: 'Bearer' }),
    }),
  )
  log.record(
    tokenExchange({
      label: 'consent',
      request: {
        method: 'POST',
        url: `${BASE}/open-banking/v4.0/aisp/account-access-consents`,
        headers: [
          ['authorization', `Bearer ${CC_TOKEN}`],
          ['content-type', 'application/json'],
          ['x-custom-credential', `Bearer ${'z'.repeat(40)}`],
        ],
        body: json({ Data: { Permissions: ['ReadAccountsDetail'] } }),
      },
      response: answer({ Data: { ConsentId: 'aac-0001-consent' } }, 201),
    }),
  )
  log.record(
    tokenExchange({
      label: 'token (authorization_code)',
      request: {
        method: 'POST',
        url: `${AUTH}/token`,
        headers: [['content-type', 'application/x-www-form-urlencoded']],
        body: form('authorization_code', '&code=the-authorisation-code-0123456789'),
      },
      response: answer({ access_token: PSU_TOKEN, refresh_token: 'refresh-token-0123456789abcdef012345' }),
    }),
  )
  log.record(
    get(`${BASE}/open-banking/v4.0/aisp/accounts`, PSU_TOKEN, { Data: { Account: [{ AccountId: 'acc-one' }] } }),
  )
  log.record(get(`${BASE}/open-banking/v4.0/aisp/accounts/acc-one/transactions?page=2`, PSU_TOKEN, { Data: {} }))
  return log
}

describe('templateExchanges', () => {
  it('turns origins, ids and tokens into variables; the values go to the environment, never to the collection', async () => {
    const log = run()
    const raw = log.list({ raw: true })
    const { exchanges, variables } = templateExchanges(raw, { baseUrl: BASE, authUrl: AUTH })
    const byKey = Object.fromEntries(variables.map((v) => [v.key, v]))
    expect(byKey).toMatchObject({
      base_url: { value: BASE, secret: false },
      auth_url: { value: AUTH, secret: false },
      client_id: { value: 'client-0001', secret: false },
      client_token: { value: CC_TOKEN, secret: true },
      consent_id: { value: 'aac-0001-consent', secret: false },
      access_token: { value: PSU_TOKEN, secret: true },
      refresh_token: { secret: true },
      account_id: { value: 'acc-one' },
    })
    expect(exchanges[3]!.request).toMatchObject({
      url: '{{base_url}}/open-banking/v4.0/aisp/accounts',
      headers: [['authorization', 'Bearer {{access_token}}']],
    })
    expect(exchanges[4]!.request.url).toBe(
      '{{base_url}}/open-banking/v4.0/aisp/accounts/{{account_id}}/transactions?page=2',
    )
    expect(exchanges[1]!.request.headers[0]).toEqual(['authorization', 'Bearer {{client_token}}'])
    // A header still carrying a masked value would stop newman sending the request: it becomes a variable.
    expect(exchanges[1]!.request.headers[2]).toEqual(['x-custom-credential', '{{x_custom_credential_header}}'])
    // Single-use values stay masked in the body; the client id is a variable.
    const codeBody = exchanges[2]!.request.body!.text
    expect(codeBody).toContain('client_id={{client_id}}')
    expect(codeBody).not.toContain('the-authorisation-code-0123456789')
    expect(codeBody).not.toContain(assertion)
    const collection = toPostmanCollection(exchanges, 'AIS run', {
      variables,
      tls: { verification: 'exact-ca', caPath: '/ca.pem' },
    })
    const text = JSON.stringify(collection)
    for (const v of variables.filter((x) => x.secret)) expect(text).not.toContain(v.value)
    // No header carries a masked value (newman would refuse it: "Invalid character in header content").
    for (const e of exchanges) for (const [, value] of e.request.headers) expect(value).not.toMatch(/[…•]/)
    expect(collection.info.description).toContain('--ssl-extra-ca-certs /ca.pem')
    expect(collection.variable?.find((v) => v.key === 'access_token')).toMatchObject({ value: '', type: 'secret' })
    expect(collection.variable?.find((v) => v.key === 'base_url')).toMatchObject({ value: BASE })
    // Postman's own SDK reads it back and resolves the variables from the environment.
    const items = readCollection(collection).items.all()
    expect(items.length).toBe(5)
    expect(items[3]!.request.url.toString()).toBe('{{base_url}}/open-banking/v4.0/aisp/accounts')
    const env = toPostmanEnvironment('AIS run', variables, '2026-01-01T00:00:00Z') as {
      values: Array<{ key: string; value: string; type: string }>
    }
    expect(env.values.find((v) => v.key === 'access_token')).toEqual({
      key: 'access_token',
      value: PSU_TOKEN,
      type: 'secret',
      enabled: true,
    })
  })

  it('derives base_url and auth_url from the requests when the environment is not given', () => {
    const { variables } = templateExchanges(run().list({ raw: true }))
    expect(variables.slice(0, 2).map((v) => [v.key, v.value])).toEqual([
      ['base_url', BASE],
      ['auth_url', AUTH],
    ])
  })
})
