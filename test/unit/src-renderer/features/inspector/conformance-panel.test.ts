// @vitest-environment happy-dom
import { act } from 'react'
import { cleanup, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import type { ConformanceDto, ExchangeDto } from '../../../../../src-main/contract/exchange.ts'
import type { ExchangeSummaryDto } from '../../../../../src-main/contract/exchange-summaries.ts'
import { ExchangeDetail } from '../../../../../src-renderer/features/inspector/exchange-detail.tsx'
import { ExchangeList } from '../../../../../src-renderer/features/inspector/exchange-list-view.tsx'
import { connectEvents, createAppStore } from '../../../../../src-renderer/store/store.ts'
import { fakeApi, settle } from '../../support/fake-api.ts'
import { el, h, renderWithStore } from '../../support/render.ts'

afterEach(cleanup)

const URL = 'https://127.0.0.1:8443/open-banking/v4.0/aisp/accounts'
const VIOLATION = {
  path: 'Data.Account[0].OpeningDate',
  rule: 'schema.format',
  message: 'Data.Account[0].OpeningDate must be a date-time',
  value: '"not-a-date"',
  source: 'OBReadAccount6 (account-info.json#/$defs/OpeningDate/format)',
}

function exchange(conformance?: ConformanceDto): ExchangeDto {
  return {
    id: 'x1',
    startedAt: '2026-11-22T10:00:00.000Z',
    request: { method: 'GET', url: URL, headers: [] },
    response: {
      status: 200,
      headers: [['content-type', 'application/json']],
      body: { text: '{"Data":{}}', encoding: 'utf8', size: 11, truncated: false, contentType: 'application/json' },
    },
    timings: { connect: 1, tls: 2, firstByte: 3, total: 4 },
    reusedConnection: true,
    presentedCertificate: null,
    jwts: [],
    redacted: false,
    ...(conformance ? { conformance } : {}),
  }
}
const row = (violations?: number): ExchangeSummaryDto => ({
  id: 'x1',
  startedAt: '2026-11-22T10:00:00.000Z',
  method: 'GET',
  url: URL,
  path: '/open-banking/v4.0/aisp/accounts',
  status: 200,
  totalMs: 4,
  responseSize: 11,
  ...(violations !== undefined ? { violations } : {}),
})

describe('ConformancePanel in the exchange detail', () => {
  it('lists each violation under the body: path, rule, value found, the message and where the rule is written', async () => {
    const api = fakeApi({
      'exchanges.get': () =>
        exchange({ checked: true, operation: 'GET /accounts (account-info.json)', violations: [VIOLATION] }),
    })
    const store = createAppStore(api)
    await store.getState().selectExchange('x1')
    renderWithStore(store, el(ExchangeDetail, {}))
    const panel = screen.getByRole('region', { name: 'Bank conformance' })
    expect(within(panel).getByText('1 violation')).toBeTruthy()
    const cells = within(panel)
      .getAllByRole('cell')
      .map((c) => c.textContent)
    expect(cells).toEqual([VIOLATION.path, VIOLATION.rule, VIOLATION.value, `${VIOLATION.message}${VIOLATION.source}`])
    expect(panel.textContent).toContain('Checked as GET /accounts (account-info.json)')
  })

  it('says an answer conforms, and says why one was not checked', async () => {
    const conforms = exchange({ checked: true, operation: 'GET /accounts (account-info.json)', violations: [] })
    const store = createAppStore(fakeApi({ 'exchanges.get': () => conforms }))
    await store.getState().selectExchange('x1')
    renderWithStore(store, el(ExchangeDetail, {}))
    expect(within(screen.getByRole('region', { name: 'Bank conformance' })).getByText('conforms')).toBeTruthy()
    cleanup()
    const notChecked = exchange({ checked: false, violations: [], note: "Not an answer of the bank's AIS or PIS API." })
    const other = createAppStore(fakeApi({ 'exchanges.get': () => notChecked }))
    await other.getState().selectExchange('x1')
    renderWithStore(other, el(ExchangeDetail, {}))
    const panel = screen.getByRole('region', { name: 'Bank conformance' })
    expect(within(panel).getByText('not checked')).toBeTruthy()
    expect(within(panel).getByRole('note').textContent).toMatch(/Not an answer/)
  })

  it('reads the verdict again when the row reports the end of a check that was running when the exchange was opened', async () => {
    const api = fakeApi({
      'exchanges.list': () => ({ total: 1, items: [row()] }),
      'exchanges.get': () =>
        exchange({
          checked: false,
          violations: [],
          note: "Being checked against the OB v4.0 schemas and the bank's rules.",
        }),
      'exchanges.conformance': () => ({
        checked: true,
        operation: 'GET /accounts (account-info.json)',
        violations: [VIOLATION],
      }),
    })
    const store = createAppStore(api)
    connectEvents(store, api)
    await store.getState().loadExchanges()
    await store.getState().selectExchange('x1')
    renderWithStore(store, h('div', {}, el(ExchangeList, { height: 400 }), el(ExchangeDetail, {})))
    expect(screen.getByRole('region', { name: 'Bank conformance' }).textContent).toMatch(/Being checked/)
    expect(screen.queryByLabelText(/bank-conformance violation/)).toBeNull()
    act(() => api.emit('exchanges.onDidRecord', row(1)))
    await settle()
    expect(screen.getByLabelText('1 bank-conformance violation').textContent).toBe('1 ⚠')
    expect(screen.getByRole('region', { name: 'Bank conformance' }).textContent).toContain(VIOLATION.path)
    expect(api.callsOf('exchanges.conformance')).toEqual([{ id: 'x1' }])
    // The row was updated in place, not added again.
    expect(store.getState().inspector.items).toHaveLength(1)
  })
})
