import { beforeAll, describe, expect, it } from 'vitest'
import { apiOf, checkAnswer } from '../../../src-main/conformance/check-answer.ts'
import { ObSchemas } from '../../../src-main/conformance/ob-schemas.ts'
import { findOpenApiDir, readOpenApiFiles } from '../../../src-main/conformance/openapi-files.ts'
import { accountsBody, AIS, answer, AUTH, BASE, PIS, transactionsPage } from './answers.ts'

let schemas: ObSchemas
beforeAll(() => {
  schemas = new ObSchemas(readOpenApiFiles(findOpenApiDir()!))
})

const tx = `${AIS}/accounts/acc-1/transactions`
const rules = (r: { violations: Array<{ rule: string; path: string }> }) =>
  r.violations.map((v) => `${v.rule} ${v.path}`)

describe('checkAnswer: matching', () => {
  it('finds the API and the path after its base path under {base_url}', () => {
    expect(apiOf(`${AIS}/accounts/a/balances?x=1`, BASE)).toEqual({ api: 'ais', path: '/accounts/a/balances' })
    expect(apiOf(`${PIS}/domestic-payments/dp-1`, `${BASE}/`)).toEqual({ api: 'pis', path: '/domestic-payments/dp-1' })
    expect(apiOf('https://other.example/open-banking/v4.0/aisp/accounts', BASE)).toBeUndefined()
    expect(apiOf(`${BASE}/dynamic-client-registration/v3.2/register`, BASE)).toBeUndefined()
  })

  it('names the operation (the literal template before the parameterised one)', () => {
    expect(checkAnswer(schemas, answer(`${AIS}/accounts`, accountsBody())).operation).toBe(
      'GET /accounts (account-info.json)',
    )
    expect(checkAnswer(schemas, answer(tx, transactionsPage(5, 1, 1))).operation).toBe(
      'GET /accounts/{AccountId}/transactions (account-info.json)',
    )
  })

  it('does not judge answers outside the bank API, nor paths the files do not have', () => {
    const dcr = checkAnswer(schemas, answer(`${BASE}/dynamic-client-registration/v3.2/register`, {}))
    expect(dcr).toMatchObject({ checked: false, violations: [] })
    expect(dcr.note).toMatch(/Not an answer of the bank's AIS or PIS API/)
    const unknown = checkAnswer(schemas, answer(`${AIS}/nothing-here`, {}))
    expect(unknown).toMatchObject({ checked: false })
    expect(unknown.note).toMatch(/GET \/nothing-here is not an operation of account-info.json/)
  })
})

describe('checkAnswer: schemas', () => {
  it('passes a valid accounts answer and a valid full page with a next page', () => {
    const accounts = checkAnswer(schemas, answer(`${AIS}/accounts`, accountsBody()))
    expect(accounts).toEqual({ checked: true, operation: 'GET /accounts (account-info.json)', violations: [] })
    expect(checkAnswer(schemas, answer(`${tx}?page=2`, transactionsPage(100, 2, 3))).violations).toEqual([])
    expect(checkAnswer(schemas, answer(`${tx}?page=3`, transactionsPage(7, 3, 3))).violations).toEqual([])
  })

  it('reports a bad date with its OB path, the value found and the schema it breaks', () => {
    const body = accountsBody()
    body.Data.Account[0].OpeningDate = 'yesterday'
    const [v, ...rest] = checkAnswer(schemas, answer(`${AIS}/accounts`, body)).violations
    expect(rest).toEqual([])
    expect(v).toEqual({
      path: 'Data.Account[0].OpeningDate',
      rule: 'schema.format',
      message: 'Data.Account[0].OpeningDate must be a date-time',
      value: '"yesterday"',
      source: expect.stringMatching(/^OBReadAccount6 \(account-info\.json#\/\$defs\/.+\/format\)$/),
    })
  })

  it('reports a missing mandatory member and an unknown one at their paths, without a value for the missing one', () => {
    const body = accountsBody()
    delete body.Data.Account[0].AccountId
    body.Data.Account[0].Nickname2 = 'x'
    const found = checkAnswer(schemas, answer(`${AIS}/accounts`, body)).violations
    expect(found.find((v) => v.rule === 'schema.required')).toMatchObject({
      path: 'Data.Account[0].AccountId',
      message: expect.stringContaining('is missing'),
    })
    expect(found.find((v) => v.rule === 'schema.required')).not.toHaveProperty('value')
    expect(found.find((v) => v.rule === 'schema.additionalProperties')).toMatchObject({
      path: 'Data.Account[0].Nickname2',
      value: '"x"',
    })
  })

  it('reports a status the operation does not list, a missing required header, a body that is not JSON', () => {
    expect(rules(checkAnswer(schemas, answer(`${AIS}/accounts`, accountsBody(), { status: 418 })))).toEqual([
      'schema.status ',
    ])
    const noId = answer(`${AIS}/accounts`, accountsBody(), { responseHeaders: [['content-type', 'application/json']] })
    const source = 'account-info.json#/paths//accounts/get/responses/200/headers'
    expect(checkAnswer(schemas, noId).violations).toEqual([
      expect.objectContaining({ path: 'header x-fapi-interaction-id', rule: 'schema.header', source }),
    ])
    expect(rules(checkAnswer(schemas, answer(`${AIS}/accounts`, '{"Data": ')))).toEqual(['schema.json '])
    expect(rules(checkAnswer(schemas, answer(`${AIS}/accounts`, '', {})))).toEqual(['schema.body '])
    const html = answer(`${AIS}/accounts`, '<html></html>', {
      responseHeaders: [
        ['content-type', 'text/html'],
        ['x-fapi-interaction-id', 'iid-1'],
      ],
    })
    expect(checkAnswer(schemas, html).violations).toEqual([
      expect.objectContaining({ rule: 'schema.content-type', value: 'text/html' }),
    ])
  })

  it('checks an error answer against OBErrorResponse1', () => {
    const err = answer(
      `${AIS}/accounts`,
      { Code: '400', Errors: [{ ErrorCode: 'U002', Message: 'bad' }] },
      { status: 400 },
    )
    expect(checkAnswer(schemas, err).violations).toEqual([])
    const bad = answer(`${AIS}/accounts`, { Code: '400', Errors: [] }, { status: 400 })
    expect(rules(checkAnswer(schemas, bad))).toEqual(['schema.minItems Errors'])
  })
})

describe("checkAnswer: the bank's rules", () => {
  it('page size: over 100 on any page, under 100 on a page with a next one (bank-interface-spec.md §8)', () => {
    const over = checkAnswer(schemas, answer(tx, transactionsPage(101, 1, 1))).violations
    const source = expect.stringContaining('bank-interface-spec.md §8 Limits')
    expect(over).toEqual([
      expect.objectContaining({ path: 'Data.Transaction', rule: 'bank.page-size', value: 'an array of 101', source }),
    ])
    expect(rules(checkAnswer(schemas, answer(tx, transactionsPage(99, 1, 2))))).toEqual([
      'bank.page-size Data.Transaction',
    ])
  })

  it('Links.Next: missing while pages remain, present on the last page', () => {
    const body = transactionsPage(100, 1, 3)
    delete body.Links.Next
    const [missing] = checkAnswer(schemas, answer(tx, body)).violations
    expect(missing).toMatchObject({
      path: 'Links.Next',
      rule: 'bank.links-next',
      message: expect.stringContaining('page 1 of 3'),
    })
    expect(missing).not.toHaveProperty('value')
    const last = transactionsPage(10, 2, 2)
    last.Links.Next = `${tx}?page=3`
    expect(rules(checkAnswer(schemas, answer(`${tx}?page=2`, last)))).toEqual(['bank.links-next Links.Next'])
  })

  it('Meta.TotalPages: missing, not a whole number, fewer than the page answered', () => {
    const none = transactionsPage(3, 1, 1)
    delete none.Meta.TotalPages
    expect(rules(checkAnswer(schemas, answer(tx, none)))).toEqual(['bank.total-pages Meta.TotalPages'])
    const zero = transactionsPage(3, 1, 1)
    zero.Meta.TotalPages = 0
    expect(checkAnswer(schemas, answer(tx, zero)).violations.map((v) => [v.rule, v.value])).toContainEqual([
      'bank.total-pages',
      '0',
    ])
    expect(rules(checkAnswer(schemas, answer(`${tx}?page=4`, transactionsPage(3, 4, 2))))).toContain(
      'bank.total-pages Meta.TotalPages',
    )
  })

  it('Links are absolute URIs on {base_url}', () => {
    const body = transactionsPage(100, 1, 2)
    body.Links.Next = 'https://evil.example/next?page=2'
    body.Links.First = '/relative?page=1'
    const found = checkAnswer(schemas, answer(tx, body)).violations.filter((v) => v.rule === 'bank.links-origin')
    expect(found.map((v) => v.path).sort()).toEqual(['Links.First', 'Links.Next'])
    expect(found.find((v) => v.path === 'Links.Next')!.value).toBe('"https://evil.example/next?page=2"')
  })

  it('x-fapi-interaction-id is the one the request sent', () => {
    const other = answer(`${AIS}/accounts`, accountsBody(), {
      responseHeaders: [
        ['content-type', 'application/json'],
        ['x-fapi-interaction-id', 'iid-2'],
      ],
    })
    const expected = expect.objectContaining({
      path: 'header x-fapi-interaction-id',
      rule: 'bank.interaction-id',
      value: '"iid-2"',
    })
    expect(checkAnswer(schemas, other).violations).toEqual([expected])
  })

  it('a PIS answer with a body carries x-jws-signature, a detached JWS', () => {
    const body = { Data: { DomesticPaymentId: 'dp-1' } }
    const url = `${PIS}/domestic-payments/dp-1`
    const none = checkAnswer(schemas, answer(url, body)).violations
    expect(none).toContainEqual(expect.objectContaining({ path: 'header x-jws-signature', rule: 'bank.jws-signature' }))
    const headers = (sig: string): Array<[string, string]> => [
      ['content-type', 'application/json'],
      ['x-fapi-interaction-id', 'iid-1'],
      ['x-jws-signature', sig],
    ]
    const signed = answer(url, body, { responseHeaders: headers('eyJhbGciOiJQUzI1NiJ9..c2ln') })
    expect(checkAnswer(schemas, signed).violations.filter((v) => v.rule === 'bank.jws-signature')).toEqual([])
    const attached = answer(url, body, { responseHeaders: headers('a.b.c') })
    expect(checkAnswer(schemas, attached).violations).toContainEqual(
      expect.objectContaining({ rule: 'bank.jws-signature', value: '"a.b.c"' }),
    )
    // The schema is checked too: this body lacks most of OBWriteDomesticResponse5.
    expect(checkAnswer(schemas, signed).violations.some((v) => v.rule === 'schema.required')).toBe(true)
  })

  it('an OAuth error answer of {auth_url} carries an "error" string', () => {
    const ok = answer(`${AUTH}/token`, { error: 'invalid_client', error_description: 'no' }, { status: 401 })
    expect(checkAnswer(schemas, ok)).toMatchObject({ checked: true, violations: [] })
    const bad = answer(`${AUTH}/token`, { message: 'no' }, { status: 400 })
    const expected = expect.objectContaining({
      path: 'error',
      rule: 'oauth.error-shape',
      source: expect.stringContaining('RFC 6749 §5.2'),
    })
    expect(checkAnswer(schemas, bad).violations).toEqual([expected])
    expect(checkAnswer(schemas, answer(`${AUTH}/token`, { access_token: 'x' }))).toMatchObject({ checked: false })
  })
})
