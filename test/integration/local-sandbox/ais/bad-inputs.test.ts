import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ALL_PERMISSIONS, startAisHarness, type AisHarness } from './support/ais-harness.ts'

interface Case {
  name: string
  method?: string
  path: string
  /** `cc`: a client-credentials token; `code`: the authorised consent's token; `none`. */
  token?: 'cc' | 'code' | 'none'
  headers?: Record<string, string>
  body?: unknown
  psuPresent?: boolean
  status: number
  code?: string
  path_?: string
  message?: RegExp
}

const consent = (data: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  Data: data,
  Risk: {},
  ...extra,
})
const PAST = '2020-01-01T00:00:00+00:00'

const CASES: Case[] = [
  // Consent creation: media types and body.
  {
    name: 'text/plain body',
    method: 'POST',
    path: '/account-access-consents',
    token: 'cc',
    headers: { 'content-type': 'text/plain' },
    body: '{}',
    status: 415,
    code: 'U006',
    message: /application\/json/,
  },
  {
    name: 'no Content-Type',
    method: 'POST',
    path: '/account-access-consents',
    token: 'cc',
    headers: { 'content-type': '' },
    body: '{"Data":{}}',
    status: 415,
    code: 'U006',
  },
  {
    name: 'Content-Type with another charset',
    method: 'POST',
    path: '/account-access-consents',
    token: 'cc',
    headers: { 'content-type': 'application/json; charset=latin1' },
    body: consent({ Permissions: ['ReadAccountsBasic'] }),
    status: 415,
    code: 'U006',
  },
  {
    name: 'malformed JSON',
    method: 'POST',
    path: '/account-access-consents',
    token: 'cc',
    body: '{"Data": {',
    status: 400,
    code: 'U010',
    message: /not valid JSON/,
  },
  {
    name: 'empty body',
    method: 'POST',
    path: '/account-access-consents',
    token: 'cc',
    body: '',
    headers: { 'content-type': 'application/json' },
    status: 400,
    code: 'U010',
    message: /empty/,
  },
  {
    name: 'a JSON array',
    method: 'POST',
    path: '/account-access-consents',
    token: 'cc',
    body: [],
    status: 400,
    code: 'U002',
    message: /JSON object/,
  },
  {
    name: 'Risk missing',
    method: 'POST',
    path: '/account-access-consents',
    token: 'cc',
    body: { Data: { Permissions: ['ReadAccountsBasic'] } },
    status: 400,
    code: 'U004',
    path_: 'Risk',
  },
  {
    name: 'Risk not empty',
    method: 'POST',
    path: '/account-access-consents',
    token: 'cc',
    body: consent({ Permissions: ['ReadAccountsBasic'] }, { Risk: { PaymentContextCode: 'x' } }),
    status: 400,
    code: 'U005',
    path_: 'Risk.PaymentContextCode',
  },
  {
    name: 'Data missing',
    method: 'POST',
    path: '/account-access-consents',
    token: 'cc',
    body: { Risk: {} },
    status: 400,
    code: 'U004',
    path_: 'Data',
  },
  {
    name: 'Permissions missing',
    method: 'POST',
    path: '/account-access-consents',
    token: 'cc',
    body: consent({}),
    status: 400,
    code: 'U004',
    path_: 'Data.Permissions',
  },
  {
    name: 'Permissions not a list',
    method: 'POST',
    path: '/account-access-consents',
    token: 'cc',
    body: consent({ Permissions: 'ReadAccountsBasic' }),
    status: 400,
    code: 'U002',
    path_: 'Data.Permissions',
  },
  // The official OBReadConsent1 leaves Data open (no additionalProperties: false): an unknown member is not an error.
  {
    name: 'Data without Permissions',
    method: 'POST',
    path: '/account-access-consents',
    token: 'cc',
    body: consent({ AccountIds: ['x'] }),
    status: 400,
    code: 'U004',
    path_: 'Data.Permissions',
  },
  // Permission rules.
  {
    name: 'empty permission list',
    method: 'POST',
    path: '/account-access-consents',
    token: 'cc',
    body: consent({ Permissions: [] }),
    status: 400,
    code: 'U004',
    path_: 'Data.Permissions',
    message: /empty/,
  },
  {
    name: 'unknown permission code',
    method: 'POST',
    path: '/account-access-consents',
    token: 'cc',
    body: consent({ Permissions: ['ReadAccountsBasic', 'ReadEverything'] }),
    status: 400,
    code: 'U002',
    path_: 'Data.Permissions[1]',
    message: /ReadEverything/,
  },
  {
    name: 'v3.1-era permission name',
    method: 'POST',
    path: '/account-access-consents',
    token: 'cc',
    body: consent({ Permissions: ['ReadAccountsBasic', 'ReadFutureDatedPaymentsBasic'] }),
    status: 400,
    code: 'U002',
    path_: 'Data.Permissions[1]',
  },
  {
    name: 'TransactionsDetail without Credits or Debits',
    method: 'POST',
    path: '/account-access-consents',
    token: 'cc',
    body: consent({ Permissions: ['ReadAccountsBasic', 'ReadTransactionsDetail'] }),
    status: 400,
    code: 'U002',
    path_: 'Data.Permissions',
    message: /ReadTransactionsDetail needs at least one of ReadTransactionsCredits and ReadTransactionsDebits/,
  },
  {
    name: 'TransactionsBasic without Credits or Debits',
    method: 'POST',
    path: '/account-access-consents',
    token: 'cc',
    body: consent({ Permissions: ['ReadAccountsDetail', 'ReadTransactionsBasic'] }),
    status: 400,
    code: 'U002',
    message: /ReadTransactionsBasic needs/,
  },
  {
    name: 'Debits without Basic or Detail',
    method: 'POST',
    path: '/account-access-consents',
    token: 'cc',
    body: consent({ Permissions: ['ReadAccountsBasic', 'ReadTransactionsDebits'] }),
    status: 400,
    code: 'U002',
    message: /ReadTransactionsDebits needs at least one of ReadTransactionsBasic and ReadTransactionsDetail/,
  },
  {
    name: 'Credits without Basic or Detail',
    method: 'POST',
    path: '/account-access-consents',
    token: 'cc',
    body: consent({ Permissions: ['ReadAccountsBasic', 'ReadTransactionsCredits'] }),
    status: 400,
    code: 'U002',
    message: /ReadTransactionsCredits needs/,
  },
  {
    name: 'no accounts permission',
    method: 'POST',
    path: '/account-access-consents',
    token: 'cc',
    body: consent({ Permissions: ['ReadBalances'] }),
    status: 400,
    code: 'U002',
    message: /ReadAccountsBasic or ReadAccountsDetail/,
  },
  // Dates.
  {
    name: 'ExpirationDateTime in the past',
    method: 'POST',
    path: '/account-access-consents',
    token: 'cc',
    body: consent({ Permissions: ['ReadAccountsBasic'], ExpirationDateTime: PAST }),
    status: 400,
    code: 'U003',
    path_: 'Data.ExpirationDateTime',
  },
  {
    name: 'ExpirationDateTime without a timezone',
    method: 'POST',
    path: '/account-access-consents',
    token: 'cc',
    body: consent({ Permissions: ['ReadAccountsBasic'], ExpirationDateTime: '2030-01-01T00:00:00' }),
    status: 400,
    code: 'U003',
    path_: 'Data.ExpirationDateTime',
  },
  {
    name: 'ExpirationDateTime not a date',
    method: 'POST',
    path: '/account-access-consents',
    token: 'cc',
    body: consent({ Permissions: ['ReadAccountsBasic'], ExpirationDateTime: 'next year' }),
    status: 400,
    code: 'U003',
  },
  {
    name: 'TransactionFromDateTime after To',
    method: 'POST',
    path: '/account-access-consents',
    token: 'cc',
    body: consent({
      Permissions: ['ReadAccountsBasic'],
      TransactionFromDateTime: '2026-02-01T00:00:00+00:00',
      TransactionToDateTime: '2026-01-01T00:00:00+00:00',
    }),
    status: 400,
    code: 'U003',
    path_: 'Data.TransactionToDateTime',
  },
  // Tokens and methods.
  {
    name: 'no token on consent creation',
    method: 'POST',
    path: '/account-access-consents',
    token: 'none',
    body: consent({ Permissions: ['ReadAccountsBasic'] }),
    status: 401,
  },
  {
    name: 'Basic instead of Bearer',
    path: '/accounts',
    token: 'none',
    headers: { authorization: 'Basic Zm9vOmJhcg==' },
    status: 401,
  },
  {
    name: 'PUT on a consent',
    method: 'PUT',
    path: '/account-access-consents/aac-x',
    token: 'cc',
    status: 405,
    code: 'U011',
  },
  { name: 'POST on /accounts', method: 'POST', path: '/accounts', token: 'code', body: {}, status: 405 },
  {
    name: 'Accept text/html',
    path: '/accounts',
    token: 'code',
    headers: { accept: 'text/html' },
    status: 406,
    code: 'U006',
    path_: 'Accept',
  },
  { name: 'unknown AIS path', path: '/accountz', token: 'code', status: 404, code: 'U011' },
  { name: 'trailing slash', path: '/accounts/', token: 'code', status: 404 },
  {
    name: 'bad percent-encoding in AccountId',
    path: '/accounts/%E0%A4%A',
    token: 'code',
    status: 400,
    code: 'U002',
    path_: 'AccountId',
  },
  // Data requests.
  {
    name: 'unknown AccountId',
    path: '/accounts/acc-nobody/balances',
    token: 'code',
    status: 400,
    code: 'U011',
    path_: 'AccountId',
  },
  { name: "another PSU's account", path: '/accounts/acc-grace-card', token: 'code', status: 403, code: 'U008' },
  {
    name: 'misspelt filter',
    path: '/accounts/acc-amelia-current/transactions?fromBookingDate=2026-01-01',
    token: 'code',
    status: 400,
    code: 'U005',
    path_: 'fromBookingDate',
  },
  {
    name: 'filter given twice',
    path: '/accounts/acc-amelia-current/transactions?page=1&page=2',
    token: 'code',
    status: 400,
    code: 'U002',
    path_: 'page',
  },
  {
    name: 'page 0',
    path: '/accounts/acc-amelia-current/transactions?page=0',
    token: 'code',
    status: 400,
    code: 'U002',
    path_: 'page',
  },
  {
    name: 'page not a number',
    path: '/accounts/acc-amelia-current/transactions?page=two',
    token: 'code',
    status: 400,
    code: 'U002',
    path_: 'page',
  },
  {
    name: 'page past the last',
    path: '/accounts/acc-amelia-current/transactions?page=5000',
    token: 'code',
    status: 400,
    code: 'U002',
    path_: 'page',
    message: /past the last page/,
  },
  {
    name: 'toBookingDateTime not a date',
    path: '/accounts/acc-amelia-current/transactions?toBookingDateTime=2026-02-30',
    token: 'code',
    status: 400,
    code: 'U003',
    path_: 'toBookingDateTime',
  },
  {
    name: 'bad statement filter',
    path: '/accounts/acc-amelia-card/statements?fromStatementDateTime=03/2026',
    token: 'code',
    status: 400,
    code: 'U003',
    path_: 'fromStatementDateTime',
  },
  {
    name: 'unknown statement',
    path: '/accounts/acc-amelia-card/statements/stm-nope',
    token: 'code',
    status: 400,
    code: 'U011',
    path_: 'StatementId',
  },
  { name: 'query parameter on /accounts', path: '/accounts?page=2', token: 'code', status: 400, code: 'U005' },
  {
    name: 'customer IP that is not an IP',
    path: '/accounts',
    token: 'code',
    headers: { 'x-fapi-customer-ip-address': 'localhost' },
    status: 400,
    code: 'U006',
    path_: 'x-fapi-customer-ip-address',
  },
  {
    name: 'x-fapi-auth-date not an RFC 7231 date',
    path: '/accounts',
    token: 'code',
    headers: { 'x-fapi-auth-date': '2026-01-01T00:00:00Z' },
    status: 400,
    code: 'U006',
    path_: 'x-fapi-auth-date',
  },
  {
    name: 'customer IP that is not an IP on consent creation',
    method: 'POST',
    path: '/account-access-consents',
    token: 'cc',
    headers: { 'x-fapi-customer-ip-address': '10.0.0' },
    body: consent({ Permissions: ['ReadAccountsBasic'] }),
    status: 400,
    code: 'U006',
    path_: 'x-fapi-customer-ip-address',
  },
  {
    name: 'bulk endpoint without the PSU',
    path: '/balances',
    token: 'code',
    psuPresent: false,
    status: 403,
    code: 'U007',
  },
]

describe('AIS bad inputs: each gets the right status and error code, never a 500', () => {
  let h: AisHarness
  let code: string
  beforeAll(async () => {
    h = await startAisHarness()
    code = (await h.tppA.authorised(ALL_PERMISSIONS, 'psu-amelia', ['acc-amelia-current', 'acc-amelia-card'])).token
  })
  afterAll(async () => {
    expect(h.logs.filter((l) => l.includes('unexpected error'))).toEqual([])
    await h?.stop()
  })

  it(`has at least 15 cases (${CASES.length})`, () => {
    expect(CASES.length).toBeGreaterThanOrEqual(15)
  })

  for (const c of CASES) {
    it(`${c.name} -> ${c.status}${c.code ? ` ${c.code}` : ''}`, async () => {
      const token = c.token === 'cc' ? h.tppA.ccToken() : c.token === 'code' ? code : undefined
      const res = await h.tppA.call(c.method ?? 'GET', c.path, {
        token,
        headers: c.headers,
        body: c.body,
        psuPresent: c.psuPresent,
      })
      expect(res.status, res.text).toBe(c.status)
      expect(res.headers['x-fapi-interaction-id']).toMatch(/^[0-9a-f-]{36}$/)
      if (c.status === 401) {
        expect(res.text).toBe('')
        return
      }
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
      const err = res.body.Errors[0]
      expect(err.ErrorCode).toHaveLength(4)
      if (c.code) expect(err.ErrorCode).toBe(c.code)
      if (c.path_) expect(err.Path).toBe(c.path_)
      if (c.message) expect(err.Message).toMatch(c.message)
      expect(res.body.Code).toBe(String(c.status))
      if (c.status === 405) expect(res.headers.allow).toBeTruthy()
    })
  }
})
