import { describe, expect, it } from 'vitest'
import { ObApiError } from '../../../../src-main/local-sandbox/http/ob-error.ts'
import { obSchemas } from '../../../../src-main/local-sandbox/openapi/ob-openapi.ts'
import { validateRequestBody } from '../../../../src-main/local-sandbox/openapi/request-body.ts'

describe('the official schemas in the sandbox', () => {
  it('finds operations and their schemas by concrete path', () => {
    const s = obSchemas()
    expect(s.matchPath('ais', '/accounts/A1/statements/S1/transactions')).toBe(
      '/accounts/{AccountId}/statements/{StatementId}/transactions',
    )
    expect(s.responseSchemaName('ais', 'GET', '/accounts', 200)).toBe('OBReadAccount6')
    expect(s.requestSchemaName('pis', 'POST', '/domestic-payments')).toBe('OBWriteDomestic2')
  })

  it('reports a response violation with its path, keyword and schema location', () => {
    const body = {
      Data: {
        Account: [
          {
            AccountId: 'A1',
            Status: 'Enabled',
            Currency: 'GBP',
            AccountCategory: 'Personal',
            AccountTypeCode: 'CACC',
            OpeningDate: '2020-01-01',
          },
        ],
      },
      Links: { Self: 'https://x/accounts' },
      Meta: { TotalPages: 1 },
    }
    const v = obSchemas().checkResponse('ais', 'GET', '/accounts', 200, { 'x-fapi-interaction-id': 'i' }, body)
    // The official OpeningDate is a date-time (ISODateTime), not a date.
    expect(v).toEqual([expect.objectContaining({ path: 'Data.Account[0].OpeningDate', keyword: 'format' })])
    body.Data.Account[0]!.OpeningDate = '2020-01-01T00:00:00+00:00'
    expect(obSchemas().checkResponse('ais', 'GET', '/accounts', 200, { 'x-fapi-interaction-id': 'i' }, body)).toEqual(
      [],
    )
    expect(obSchemas().checkResponse('ais', 'GET', '/accounts', 200, {}, body)).toEqual([
      expect.objectContaining({ keyword: 'header' }),
    ])
    expect(obSchemas().checkResponse('ais', 'PUT', '/accounts', 200, {}, body)[0]!.keyword).toBe('operation')
  })

  it('maps request errors to U004 missing / U002 invalid with the OB path', () => {
    try {
      validateRequestBody('pis', 'OBWriteDomestic2', { Data: { Initiation: {} }, Risk: {} })
      expect.unreachable()
    } catch (err) {
      expect(err).toBeInstanceOf(ObApiError)
      const details = (err as ObApiError).details
      expect(details).toContainEqual(expect.objectContaining({ code: 'U004', path: 'Data.ConsentId' }))
      expect(details).toContainEqual(
        expect.objectContaining({ code: 'U004', path: 'Data.Initiation.InstructedAmount' }),
      )
    }
  })
})
