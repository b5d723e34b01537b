import { describe, expect, it } from 'vitest'
import { ObApiError } from '../../../../src-main/local-sandbox/http/ob-error.ts'
import { KEPT_HITS, RouteTable, type TableRoute } from '../../../../src-main/local-sandbox/http/route-table.ts'

interface Named extends TableRoute {
  name: string
}

const BASE = '/open-banking/v4.0/aisp'
const table = new RouteTable<Named>(
  BASE,
  [
    { method: 'GET', path: '/accounts', name: 'list' },
    { method: 'GET', path: '/accounts/{AccountId}', name: 'one' },
    { method: 'GET', path: '/accounts/{AccountId}/statements/{StatementId}/file', name: 'file' },
    { method: 'POST', path: '/account-access-consents', name: 'create' },
    { method: 'GET', path: '/account-access-consents/{ConsentId}', name: 'read' },
    { method: 'DELETE', path: '/account-access-consents/{ConsentId}', name: 'delete' },
  ],
  (method, path) => `no endpoint ${method} ${path}`,
)

function refusal(method: string, path: string): ObApiError {
  try {
    table.resolve(method, path)
  } catch (err) {
    if (err instanceof ObApiError) return err
    throw err
  }
  throw new Error(`${method} ${path} was resolved`)
}

describe('RouteTable', () => {
  it('covers its base path and the paths under it, not a path that only starts with it', () => {
    expect(table.covers(BASE)).toBe(true)
    expect(table.covers(`${BASE}/accounts`)).toBe(true)
    expect(table.covers(`${BASE}x/accounts`)).toBe(false)
    expect(table.covers('/open-banking/v4.0/pisp/domestic-payments')).toBe(false)
  })

  it('reaches the route with the method and the path, with every parameter decoded', () => {
    expect(table.resolve('GET', `${BASE}/accounts`)).toEqual({
      route: expect.objectContaining({ name: 'list' }),
      params: {},
    })
    const hit = table.resolve('GET', `${BASE}/accounts/acc%201/statements/st%2F2/file`)
    expect(hit.route.name).toBe('file')
    expect(hit.params).toEqual({ AccountId: 'acc 1', StatementId: 'st/2' })
    expect(table.resolve('DELETE', `${BASE}/account-access-consents/aac-1`).route.name).toBe('delete')
  })

  it('answers 404 U011 with the table text for a path no route has: other case, a trailing slash, the base alone', () => {
    for (const path of [`${BASE}/Accounts`, `${BASE}/accounts/`, `${BASE}/accounts/a/b`, BASE]) {
      const err = refusal('GET', path)
      expect(err.status).toBe(404)
      expect(err.details).toEqual([{ code: 'U011', message: `no endpoint GET ${path}` }])
    }
  })

  it('answers 405 U011 with Allow listing each method of the path once', () => {
    const err = refusal('PUT', `${BASE}/account-access-consents/aac-1`)
    expect(err.status).toBe(405)
    expect(err.headers).toEqual({ Allow: 'GET, DELETE' })
    expect(err.details[0]).toMatchObject({ code: 'U011', message: expect.stringMatching(/allowed: GET, DELETE$/) })
  })

  it('answers 400 U002 naming the parameter for bad percent-encoding and for an identifier over 128 characters', () => {
    const bad = refusal('GET', `${BASE}/accounts/%E0%A4%A`)
    expect(bad.status).toBe(400)
    expect(bad.details[0]).toMatchObject({
      code: 'U002',
      path: 'AccountId',
      message: expect.stringMatching(/percent-encoding/),
    })
    expect(table.resolve('GET', `${BASE}/accounts/${'a'.repeat(128)}`).params.AccountId).toHaveLength(128)
    const long = refusal('GET', `${BASE}/account-access-consents/${'c'.repeat(129)}`)
    expect(long.details[0]).toMatchObject({
      code: 'U002',
      path: 'ConsentId',
      message: expect.stringMatching(/129 characters/),
    })
  })

  it('keeps a hit for its method and path, frozen, and the newest ones only; a refusal is never kept', () => {
    const t = new RouteTable<Named>(BASE, [{ method: 'GET', path: '/accounts/{AccountId}', name: 'one' }], () => 'no')
    const first = t.resolve('GET', `${BASE}/accounts/a%201`)
    expect(t.resolve('GET', `${BASE}/accounts/a%201`)).toBe(first)
    expect(Object.isFrozen(first) && Object.isFrozen(first.params)).toBe(true)
    expect(() => {
      ;(first.params as Record<string, string>).AccountId = 'other'
    }).toThrow(TypeError)
    // Another method on the same path is refused every time, not served from the hit.
    expect(() => t.resolve('DELETE', `${BASE}/accounts/a%201`)).toThrow(ObApiError)
    expect(() => t.resolve('DELETE', `${BASE}/accounts/a%201`)).toThrow(ObApiError)
    // Past KEPT_HITS other paths, the first hit is made again (an equal, new object).
    for (let i = 0; i < KEPT_HITS; i++) t.resolve('GET', `${BASE}/accounts/acc-${i}`)
    const again = t.resolve('GET', `${BASE}/accounts/a%201`)
    expect(again).not.toBe(first)
    expect(again).toEqual(first)
    expect(t.resolve('GET', `${BASE}/accounts/acc-${KEPT_HITS - 1}`).params.AccountId).toBe(`acc-${KEPT_HITS - 1}`)
  })
})
