// Bank answers for the lens's tests: a valid accounts list, a valid transactions page, built here so each
// test changes one thing. Valid per the official account-info.json (checked by the tests themselves).
import type { AnswerToCheck } from '../../../src-main/conformance/check-answer.ts'

export const BASE = 'https://bank.example:8443'
export const AUTH = 'https://auth.example:8444'
export const AIS = `${BASE}/open-banking/v4.0/aisp`
export const PIS = `${BASE}/open-banking/v4.0/pisp`

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function accountsBody(): Record<string, any> {
  return {
    Data: {
      Account: [
        {
          AccountId: 'acc-1',
          Status: 'Enabled',
          StatusUpdateDateTime: '2026-01-01T00:00:00+00:00',
          Currency: 'GBP',
          AccountCategory: 'Personal',
          AccountTypeCode: 'CACC',
          OpeningDate: '2020-01-01T00:00:00+00:00',
          Account: [{ SchemeName: 'UK.OBIE.SortCodeAccountNumber', Identification: '12345612345678' }],
        },
      ],
    },
    Links: { Self: `${AIS}/accounts` },
    Meta: { TotalPages: 1 },
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function transactionsPage(count: number, page: number, totalPages: number): Record<string, any> {
  const link = (n: number) => `${AIS}/accounts/acc-1/transactions?page=${n}`
  const Links: Record<string, string> = { Self: link(page), First: link(1), Last: link(totalPages) }
  if (page < totalPages) Links.Next = link(page + 1)
  return {
    Data: {
      Transaction: Array.from({ length: count }, (_, i) => ({
        AccountId: 'acc-1',
        TransactionId: `t-${page}-${i}`,
        CreditDebitIndicator: 'Debit',
        Status: 'BOOK',
        BookingDateTime: '2026-01-01T00:00:00+00:00',
        Amount: { Amount: '1.00', Currency: 'GBP' },
      })),
    },
    Links,
    Meta: { TotalPages: totalPages },
  }
}

/** A 200 answer to `GET url` with the JSON body, the interaction id echoed. */
export function answer(url: string, body: unknown, extra: Partial<AnswerToCheck> = {}): AnswerToCheck {
  return {
    method: 'GET',
    url,
    baseUrl: BASE,
    authUrl: AUTH,
    status: 200,
    requestHeaders: [['x-fapi-interaction-id', 'iid-1']],
    responseHeaders: [
      ['content-type', 'application/json; charset=utf-8'],
      ['x-fapi-interaction-id', 'iid-1'],
    ],
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...extra,
  }
}
