import { describe, expect, it } from 'vitest'
import {
  bookingWindow,
  NO_SCA_HISTORY_MS,
  SCA_WINDOW_MS,
  withinScaWindow,
} from '../../../../src-main/local-sandbox/ais/access/history-window.ts'
import { paginate, PAGE_SIZE } from '../../../../src-main/local-sandbox/ais/query/pagination.ts'
import { parseFilterDateTime, parsePage } from '../../../../src-main/local-sandbox/ais/query/query-params.ts'
import type { AisConsentRecord } from '../../../../src-main/local-sandbox/consents/consent-store.ts'
import { ObApiError } from '../../../../src-main/local-sandbox/http/ob-error.ts'

describe('filter dates', () => {
  it.each([
    ['2026-03-01', false, '2026-03-01T00:00:00.000Z'],
    ['2026-03-01', true, '2026-03-01T23:59:59.999Z'],
    ['2026-03-01T10:15', false, '2026-03-01T10:15:00.000Z'],
    ['2026-03-01T10:15:30', true, '2026-03-01T10:15:30.000Z'],
    ['2026-03-01T10:15:30.250', false, '2026-03-01T10:15:30.250Z'],
    ['2026-03-01T10:15:30+05:00', false, '2026-03-01T10:15:30.000Z'],
    ['2026-03-01T10:15:30 05:00', false, '2026-03-01T10:15:30.000Z'],
    ['2026-03-01T10:15:30Z', false, '2026-03-01T10:15:30.000Z'],
    ['2024-02-29', false, '2024-02-29T00:00:00.000Z'],
  ])('reads %s (end of day: %s) as %s, ignoring any timezone', (value, endOfDay, expected) => {
    expect(new Date(parseFilterDateTime('x', value, endOfDay)).toISOString()).toBe(expected)
  })

  it.each([
    '2026-02-29',
    '2026-13-01',
    '2026-00-10',
    '2026-01-01T24:00:00',
    '2026-01-01T10:60',
    '26-01-01',
    '2026-1-1',
    'now',
    '',
    '0999-01-01',
  ])('refuses %j with U003 naming the parameter', (value) => {
    try {
      parseFilterDateTime('fromBookingDateTime', value, false)
      throw new Error('accepted')
    } catch (err) {
      expect(err).toBeInstanceOf(ObApiError)
      expect((err as ObApiError).details[0]).toMatchObject({ code: 'U003', path: 'fromBookingDateTime' })
    }
  })

  it('reads page numbers from 1', () => {
    expect(parsePage(undefined)).toBe(1)
    expect(parsePage('12')).toBe(12)
    for (const bad of ['0', '-1', '1.5', 'x', '01', '9999999999']) expect(() => parsePage(bad), bad).toThrow(ObApiError)
  })
})

describe('pagination links', () => {
  it('gives Self, First, Prev, Next and Last with the filters, pages of 100', () => {
    expect(PAGE_SIZE).toBe(100)
    const p = paginate(1234, 2, 'https://h/x', { fromBookingDateTime: '2026-01-01' })
    expect(p).toMatchObject({ start: 100, end: 200, totalPages: 13 })
    expect(p.links).toEqual({
      Self: 'https://h/x?fromBookingDateTime=2026-01-01&page=2',
      First: 'https://h/x?fromBookingDateTime=2026-01-01&page=1',
      Prev: 'https://h/x?fromBookingDateTime=2026-01-01&page=1',
      Next: 'https://h/x?fromBookingDateTime=2026-01-01&page=3',
      Last: 'https://h/x?fromBookingDateTime=2026-01-01&page=13',
    })
    const last = paginate(1234, 13, 'https://h/x', {})
    expect(last).toMatchObject({ start: 1200, end: 1234 })
    expect(last.links.Next).toBeUndefined()
    expect(paginate(0, 1, 'https://h/x', {})).toMatchObject({ start: 0, end: 0, totalPages: 1 })
    expect(() => paginate(0, 2, 'https://h/x', {})).toThrow(/past the last page/)
  })
})

describe('the SCA window and the 90-day rule', () => {
  const consent = (over: Partial<AisConsentRecord> = {}): AisConsentRecord => ({
    kind: 'ais',
    consentId: 'c',
    clientId: 'x',
    creationDateTime: '',
    statusUpdateDateTime: '',
    status: 'AUTH',
    permissions: [],
    accountIds: [],
    deleted: false,
    authorisedAtMs: 1_000_000_000,
    ...over,
  })

  it('counts requests within five minutes of the authorisation as made with SCA', () => {
    expect(withinScaWindow(consent(), 1_000_000_000 + SCA_WINDOW_MS)).toBe(true)
    expect(withinScaWindow(consent(), 1_000_000_000 + SCA_WINDOW_MS + 1)).toBe(false)
    expect(withinScaWindow(consent({ authorisedAtMs: undefined }), 1_000_000_000)).toBe(false)
  })

  it('bounds the window by the consent period, the 90 days without SCA and the filter', () => {
    const now = 1_000_000_000 + 3_600_000
    const plain = bookingWindow(consent(), now, {})
    expect(plain).toEqual({ from: now - NO_SCA_HISTORY_MS, to: Infinity, floor: now - NO_SCA_HISTORY_MS })
    const sca = bookingWindow(consent(), 1_000_000_000 + 1000, {})
    expect(sca.from).toBe(-Infinity)
    const bounded = bookingWindow(
      consent({
        transactionFromDateTime: new Date(now - 10 * 86_400_000).toISOString(),
        transactionToDateTime: new Date(now - 86_400_000).toISOString(),
      }),
      now,
      { from: now - 200 * 86_400_000, to: now },
    )
    expect(bounded.from).toBe(now - 10 * 86_400_000)
    expect(bounded.to).toBe(now - 86_400_000)
  })
})
