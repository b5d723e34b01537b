import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAisHarness, type AisHarness } from './support/ais-harness.ts'

const DAY = 86_400_000
const TX = ['ReadAccountsBasic', 'ReadTransactionsDetail', 'ReadTransactionsCredits', 'ReadTransactionsDebits']

interface Tx {
  AccountId: string
  TransactionId: string
  TransactionReference: string
  Status: 'BOOK' | 'PDNG'
  BookingDateTime: string
}

/**
 * The serialised-page cache of the transactions endpoints (src-main/local-sandbox/ais/routes/page-cache.ts):
 * a repeated request is answered from cached bytes, and the bytes change as soon as what they show changes
 * (the clock books a transaction, the SCA window ends, the 90-day floor moves), never later.
 */
describe('AIS transactions pages: cached bytes that follow the sandbox clock', () => {
  let h: AisHarness
  beforeAll(async () => {
    h = await startAisHarness()
  })
  afterAll(async () => {
    await h?.stop()
  })

  it('answers a repeated page with the same bytes, shared by consents of the same shape, and not by a consent of another shape', async () => {
    const a = await h.tppA.authorised(TX, 'psu-amelia', ['acc-amelia-current'])
    const b = await h.tppB.authorised(TX, 'psu-amelia', ['acc-amelia-current'])
    const path = '/accounts/acc-amelia-current/transactions?page=2'
    const first = await h.tppA.call('GET', path, { token: a.token })
    expect(first.status).toBe(200)
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(Number(first.headers['content-length'])).toBe(first.raw.length)
    const again = await h.tppA.call('GET', path, { token: a.token })
    expect(again.raw.equals(first.raw)).toBe(true)
    expect((await h.tppB.call('GET', path, { token: b.token })).raw.equals(first.raw)).toBe(true)
    // Debits only: another page entirely.
    const debits = await h.tppA.authorised(
      ['ReadAccountsBasic', 'ReadTransactionsDetail', 'ReadTransactionsDebits'],
      'psu-amelia',
      ['acc-amelia-current'],
    )
    const d = await h.tppA.call('GET', path, { token: debits.token })
    expect(
      d.body.Data.Transaction.every((t: { CreditDebitIndicator: string }) => t.CreditDebitIndicator === 'Debit'),
    ).toBe(true)
    expect(d.raw.equals(first.raw)).toBe(false)
    // Each interaction still gets its own x-fapi-interaction-id.
    expect(again.headers['x-fapi-interaction-id']).not.toBe(first.headers['x-fapi-interaction-id'])
  })

  it('shows a pending transaction booked (new TransactionId) on the very request after the clock passes its booking time', async () => {
    const { consentId, token } = await h.tppA.authorised(TX, 'psu-amelia', ['acc-amelia-current', 'acc-amelia-card'])
    let pending: Tx | undefined
    let path = ''
    for (let step = 0; step < 16 && !pending; step++) {
      for (const account of ['acc-amelia-card', 'acc-amelia-current']) {
        path = `/accounts/${account}/transactions`
        const res = await h.tppA.call('GET', path, { token })
        pending = (res.body.Data.Transaction as Tx[]).find((t) => t.Status === 'PDNG')
        if (pending) break
      }
      if (!pending) {
        await h.clock.advance(6 * 3_600_000)
        await h.consents.authorise(consentId, 'psu-amelia', ['acc-amelia-current', 'acc-amelia-card'])
      }
    }
    expect(pending, 'a pending transaction within four days').toBeDefined()
    // Cached now; still pending one second before its booking time.
    const bookAt = Date.parse(pending!.BookingDateTime)
    await h.clock.advance(bookAt - h.clock.nowMs() - 1000)
    const before = await h.tppA.call('GET', path, { token })
    expect(
      (before.body.Data.Transaction as Tx[]).find((t) => t.TransactionReference === pending!.TransactionReference)
        ?.Status,
    ).toBe('PDNG')
    await h.clock.advance(1001)
    const after = await h.tppA.call('GET', path, { token })
    const booked = (after.body.Data.Transaction as Tx[]).find(
      (t) => t.TransactionReference === pending!.TransactionReference,
    )
    expect(booked?.Status).toBe('BOOK')
    expect(booked?.TransactionId).not.toBe(pending!.TransactionId)
  })

  it('drops to 90 days the moment the SCA window ends, and then follows the clock second by second', async () => {
    const { token } = await h.tppA.authorised(TX, 'psu-rahul', ['acc-rahul-current'])
    const path = '/accounts/acc-rahul-current/transactions'
    const withSca = await h.tppA.call('GET', path, { token })
    expect(h.clock.nowMs() - Date.parse(withSca.body.Meta.FirstAvailableDateTime)).toBeGreaterThan(400 * DAY)
    await h.clock.advance(5 * 60_000 + 1000)
    const noSca = await h.tppA.call('GET', path, { token })
    const first = Date.parse(noSca.body.Meta.FirstAvailableDateTime)
    expect(Math.abs(h.clock.nowMs() - 90 * DAY - first)).toBeLessThan(2000)
    expect(noSca.body.Meta.TotalPages).toBeLessThan(withSca.body.Meta.TotalPages)
    await h.clock.advance(3000)
    const later = await h.tppA.call('GET', path, { token })
    expect(Date.parse(later.body.Meta.FirstAvailableDateTime) - first).toBeGreaterThanOrEqual(2000)
  })

  it('counts a PSU-absent first page served from the cache: the fifth in 24 hours is still 429', async () => {
    const { token } = await h.tppA.authorised(TX, 'psu-grace', ['acc-grace-current'])
    const path = '/accounts/acc-grace-current/transactions'
    const statuses: number[] = []
    for (let i = 0; i < 5; i++) statuses.push((await h.tppA.call('GET', path, { token, psuPresent: false })).status)
    expect(statuses).toEqual([200, 200, 200, 200, 429])
  })
})
