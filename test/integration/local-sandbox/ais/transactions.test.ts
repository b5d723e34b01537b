import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAisHarness, type AisHarness, type HarnessTpp } from './support/ais-harness.ts'

const DAY = 86_400_000
const TX_PERMISSIONS = [
  'ReadAccountsBasic',
  'ReadTransactionsDetail',
  'ReadTransactionsCredits',
  'ReadTransactionsDebits',
]

interface Tx {
  AccountId: string
  TransactionId: string
  TransactionReference: string
  Status: 'BOOK' | 'PDNG'
  BookingDateTime: string
  CreditDebitIndicator: 'Credit' | 'Debit'
  Amount: { Amount: string; Currency: string }
  Balance?: { CreditDebitIndicator: string; Amount: { Amount: string } }
  ProprietaryBankTransactionCode: { Code: string }
  TransactionInformation?: string
  MerchantDetails?: unknown
}

/** Follows Links.Next from `path` to the last page; returns every transaction and every page body. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function allPages(tpp: HarnessTpp, path: string, token: string): Promise<{ txs: Tx[]; pages: any[] }> {
  const pages = []
  const txs: Tx[] = []
  let next: string | undefined = path
  while (next) {
    const res = await tpp.call('GET', next, { token })
    expect(res.status, next).toBe(200)
    pages.push(res.body)
    txs.push(...res.body.Data.Transaction)
    next = res.body.Links.Next
  }
  return { txs, pages }
}

const signed = (x: { CreditDebitIndicator: string; Amount: { Amount: string } }) =>
  (x.CreditDebitIndicator === 'Credit' ? 1 : -1) * Math.round(Number(x.Amount.Amount) * 100)

describe('AIS transactions over mTLS: pagination, filters, the 90-day rule, pending to booked', () => {
  let h: AisHarness
  beforeAll(async () => {
    h = await startAisHarness()
  })
  afterAll(async () => {
    await h?.stop()
  })

  it("pages 1,000+ transactions of Amelia's current account 100 at a time, newest first, to the last page, with consistent running balances", async () => {
    const { token } = await h.tppA.authorised(TX_PERMISSIONS, 'psu-amelia', ['acc-amelia-current'])
    const { txs, pages } = await allPages(h.tppA, '/accounts/acc-amelia-current/transactions', token)
    expect(txs.length).toBeGreaterThan(1000)
    const span = (Date.parse(txs[0]!.BookingDateTime) - Date.parse(txs.at(-1)!.BookingDateTime)) / DAY
    expect(span).toBeGreaterThan(400)
    const totalPages = Math.ceil(txs.length / 100)
    expect(pages).toHaveLength(totalPages)
    pages.forEach((p, i) => {
      expect(p.Meta.TotalPages).toBe(totalPages)
      expect(p.Data.Transaction).toHaveLength(i < totalPages - 1 ? 100 : txs.length - 100 * (totalPages - 1))
      const self = new URL(p.Links.Self)
      expect(self.origin).toBe(h.baseUrl)
      expect(self.searchParams.get('page')).toBe(String(i + 1))
      expect(new URL(p.Links.First).searchParams.get('page')).toBe('1')
      expect(new URL(p.Links.Last).searchParams.get('page')).toBe(String(totalPages))
      expect(p.Links.Prev === undefined).toBe(i === 0)
      expect(p.Links.Next === undefined).toBe(i === totalPages - 1)
    })
    // Newest first, unique ids, every amount a v4.0 amount string.
    for (let i = 1; i < txs.length; i++)
      expect(Date.parse(txs[i - 1]!.BookingDateTime)).toBeGreaterThanOrEqual(Date.parse(txs[i]!.BookingDateTime))
    expect(new Set(txs.map((t) => t.TransactionId)).size).toBe(txs.length)
    for (const t of txs) expect(t.Amount.Amount).toMatch(/^\d{1,13}\.\d{1,5}$/)
    // Running balances: each booked balance is the next older one plus this transaction.
    const booked = txs.filter((t) => t.Status === 'BOOK')
    for (let i = 0; i < booked.length - 1; i++) {
      expect(signed(booked[i]!.Balance!), booked[i]!.TransactionId).toBe(
        signed(booked[i + 1]!.Balance!) + signed(booked[i]!),
      )
    }
    expect(txs.filter((t) => t.Status === 'PDNG').every((t) => t.Balance === undefined)).toBe(true)
    // Codes vary by product.
    const codes = new Set(txs.map((t) => t.ProprietaryBankTransactionCode.Code))
    for (const code of ['DEB', 'DD', 'SO', 'BGC', 'FPO', 'FPI']) expect(codes).toContain(code)
  })

  it('uses card codes on a credit card (PURCHASE, REFUND, PAYMENT)', async () => {
    const { token } = await h.tppA.authorised(TX_PERMISSIONS, 'psu-grace', ['acc-grace-card'])
    const { txs } = await allPages(h.tppA, '/accounts/acc-grace-card/transactions', token)
    const codes = new Set(txs.map((t) => t.ProprietaryBankTransactionCode.Code))
    expect([...codes].sort()).toEqual(expect.arrayContaining(['PAYMENT', 'PURCHASE', 'REFUND']))
    expect(codes.has('DD')).toBe(false)
  })

  it('filters on BookingDateTime (date or date-time, no timezone), keeps the filters in the links, and 400s a bad date naming it', async () => {
    const { token } = await h.tppA.authorised(TX_PERMISSIONS, 'psu-amelia', ['acc-amelia-current'])
    const to = new Date(h.clock.nowMs() - 10 * DAY).toISOString().slice(0, 10)
    const from = new Date(h.clock.nowMs() - 40 * DAY).toISOString().slice(0, 10)
    const path = `/accounts/acc-amelia-current/transactions?fromBookingDateTime=${from}T00:00:00&toBookingDateTime=${to}`
    const { txs, pages } = await allPages(h.tppA, path, token)
    expect(txs.length).toBeGreaterThan(30)
    for (const t of txs) {
      expect(Date.parse(t.BookingDateTime)).toBeGreaterThanOrEqual(Date.parse(`${from}T00:00:00Z`))
      expect(Date.parse(t.BookingDateTime)).toBeLessThan(Date.parse(`${to}T00:00:00Z`) + DAY)
    }
    const self = new URL(pages[0].Links.Self)
    expect(self.searchParams.get('fromBookingDateTime')).toBe(`${from}T00:00:00`)
    expect(self.searchParams.get('toBookingDateTime')).toBe(to)

    const withZone = await h.tppA.call(
      'GET',
      `/accounts/acc-amelia-current/transactions?fromBookingDateTime=${from}T00:00:00%2B05:00&toBookingDateTime=${to}`,
      { token },
    )
    expect(withZone.body.Data.Transaction.length).toBe(Math.min(100, txs.length))

    for (const bad of ['2026-13-01', '2026-02-30', 'yesterday', '2026-01-01T25:00:00', '01/02/2026']) {
      const res = await h.tppA.call(
        'GET',
        `/accounts/acc-amelia-current/transactions?fromBookingDateTime=${encodeURIComponent(bad)}`,
        { token },
      )
      expect(res.status, bad).toBe(400)
      expect(res.body.Errors[0], bad).toMatchObject({ ErrorCode: 'U003', Path: 'fromBookingDateTime' })
      expect(res.body.Errors[0].Message, bad).toContain('fromBookingDateTime')
    }
    const reversed = await h.tppA.call(
      'GET',
      `/accounts/acc-amelia-current/transactions?fromBookingDateTime=${to}&toBookingDateTime=${from}`,
      { token },
    )
    expect(reversed.status).toBe(400)
    expect(reversed.body.Errors[0]).toMatchObject({ ErrorCode: 'U003', Path: 'toBookingDateTime' })

    const outside = await h.tppA.call(
      'GET',
      '/accounts/acc-amelia-current/transactions?fromBookingDateTime=1999-01-01&toBookingDateTime=2000-01-01',
      { token },
    )
    expect(outside.status).toBe(200)
    expect(outside.body.Data.Transaction).toEqual([])
    expect(outside.body.Meta.TotalPages).toBe(1)
    const past = await h.tppA.call('GET', '/accounts/acc-amelia-current/transactions?page=99', { token })
    expect(past.status).toBe(400)
    expect(past.body.Errors[0]).toMatchObject({ ErrorCode: 'U002', Path: 'page' })
  })

  it("gives unlimited history within 5 minutes of the PSU's authorisation (SCA) and 90 days after, saying so in Meta", async () => {
    const { consentId, token } = await h.tppA.authorised(TX_PERMISSIONS, 'psu-amelia', ['acc-amelia-current'])
    const withSca = await h.tppA.call('GET', '/accounts/acc-amelia-current/transactions', { token })
    const firstWithSca = Date.parse(withSca.body.Meta.FirstAvailableDateTime)
    expect(h.clock.nowMs() - firstWithSca).toBeGreaterThan(400 * DAY)
    expect(withSca.body.Meta.TotalPages).toBeGreaterThan(10)

    await h.clock.advance(5 * 60_000 + 1000)
    const { txs, pages } = await allPages(h.tppA, '/accounts/acc-amelia-current/transactions', token)
    const floor = h.clock.nowMs() - 90 * DAY
    expect(Date.parse(pages[0].Meta.FirstAvailableDateTime)).toBeGreaterThanOrEqual(floor - 60_000)
    expect(Date.parse(pages[0].Meta.FirstAvailableDateTime)).toBeLessThanOrEqual(floor + 60_000)
    expect(pages[0].Meta.TotalPages).toBeLessThan(withSca.body.Meta.TotalPages)
    for (const t of txs) expect(Date.parse(t.BookingDateTime)).toBeGreaterThanOrEqual(floor - 60_000)
    // An older filter is valid input: the valid part is returned.
    const old = await h.tppA.call('GET', '/accounts/acc-amelia-current/transactions?fromBookingDateTime=2020-01-01', {
      token,
    })
    expect(old.status).toBe(200)
    expect(old.body.Meta.TotalPages).toBe(pages[0].Meta.TotalPages)

    // Re-authorisation is a new SCA: the full history is back for another 5 minutes.
    await h.consents.authorise(consentId, 'psu-amelia', ['acc-amelia-current'])
    const again = await h.tppA.call('GET', '/accounts/acc-amelia-current/transactions', { token })
    expect(again.body.Meta.TotalPages).toBe(withSca.body.Meta.TotalPages)
  })

  it("bounds transactions by the consent's TransactionFromDateTime/ToDateTime and by its Credits/Debits and Basic/Detail permissions", async () => {
    const from = new Date(h.clock.nowMs() - 60 * DAY).toISOString()
    const to = new Date(h.clock.nowMs() - 30 * DAY).toISOString()
    const bounded = (
      await h.tppA.authorised(TX_PERMISSIONS, 'psu-rahul', ['acc-rahul-current'], {
        TransactionFromDateTime: from,
        TransactionToDateTime: to,
      })
    ).token
    const { txs, pages } = await allPages(h.tppA, '/accounts/acc-rahul-current/transactions', bounded)
    expect(txs.length).toBeGreaterThan(10)
    for (const t of txs) {
      expect(Date.parse(t.BookingDateTime)).toBeGreaterThanOrEqual(Date.parse(from))
      expect(Date.parse(t.BookingDateTime)).toBeLessThanOrEqual(Date.parse(to))
    }
    expect(Date.parse(pages[0].Meta.FirstAvailableDateTime)).toBe(Math.floor(Date.parse(from) / 1000) * 1000)
    expect(Date.parse(pages[0].Meta.LastAvailableDateTime)).toBeLessThanOrEqual(Date.parse(to))

    const credits = (
      await h.tppA.authorised(['ReadAccountsBasic', 'ReadTransactionsBasic', 'ReadTransactionsCredits'], 'psu-rahul', [
        'acc-rahul-current',
      ])
    ).token
    const c = await allPages(h.tppA, '/accounts/acc-rahul-current/transactions', credits)
    expect(c.txs.length).toBeGreaterThan(20)
    expect(c.txs.every((t) => t.CreditDebitIndicator === 'Credit')).toBe(true)
    // Basic: no TransactionInformation, Balance, MerchantDetails or counterparty accounts.
    for (const t of c.txs) {
      expect(t.TransactionInformation).toBeUndefined()
      expect(t.Balance).toBeUndefined()
      expect(t).not.toHaveProperty('DebtorAccount')
    }
    const debits = (
      await h.tppA.authorised(['ReadAccountsBasic', 'ReadTransactionsDetail', 'ReadTransactionsDebits'], 'psu-rahul', [
        'acc-rahul-current',
      ])
    ).token
    const d = await h.tppA.call('GET', '/accounts/acc-rahul-current/transactions', { token: debits })
    expect(d.body.Data.Transaction.every((t: Tx) => t.CreditDebitIndicator === 'Debit')).toBe(true)
    expect(d.body.Data.Transaction.some((t: Tx) => t.MerchantDetails)).toBe(true)
  })

  it('merges every consented account newest first on GET /transactions', async () => {
    const { token } = await h.tppA.authorised(TX_PERMISSIONS, 'psu-grace', ['acc-grace-card', 'acc-grace-current'])
    const res = await h.tppA.call('GET', '/transactions', { token })
    expect(res.status).toBe(200)
    const txs = res.body.Data.Transaction as Tx[]
    expect(new Set(txs.map((t) => t.AccountId))).toEqual(new Set(['acc-grace-card', 'acc-grace-current']))
    for (let i = 1; i < txs.length; i++)
      expect(Date.parse(txs[i - 1]!.BookingDateTime)).toBeGreaterThanOrEqual(Date.parse(txs[i]!.BookingDateTime))
    const card = await h.tppA.call('GET', '/accounts/acc-grace-card/transactions', { token })
    const current = await h.tppA.call('GET', '/accounts/acc-grace-current/transactions', { token })
    const total = (b: { Meta: { TotalPages: number } }) => b.Meta.TotalPages
    expect(total(res.body)).toBeGreaterThanOrEqual(Math.max(total(card.body), total(current.body)))
    expect(res.body.Links.Next).toContain('/open-banking/v4.0/aisp/transactions?page=2')
  })

  it('books a pending transaction as the sandbox clock moves: a new TransactionId, the same TransactionReference', async () => {
    const { consentId, token } = await h.tppA.authorised(TX_PERMISSIONS, 'psu-amelia', [
      'acc-amelia-current',
      'acc-amelia-card',
    ])
    let pending: Tx | undefined
    for (let step = 0; step < 16 && !pending; step++) {
      const res = await h.tppA.call('GET', '/transactions', { token })
      pending = (res.body.Data.Transaction as Tx[]).find((t) => t.Status === 'PDNG')
      if (!pending) {
        await h.clock.advance(6 * 3_600_000)
        await h.consents.authorise(consentId, 'psu-amelia', ['acc-amelia-current', 'acc-amelia-card'])
      }
    }
    expect(pending, 'a pending card transaction within four days').toBeDefined()
    expect(pending!.TransactionId).toMatch(/^ptx-/)
    const expected = Date.parse(pending!.BookingDateTime)
    expect(expected).toBeGreaterThan(h.clock.nowMs())
    await h.clock.advance(expected - h.clock.nowMs() + 1000)
    const path = `/accounts/${pending!.AccountId}/transactions?fromBookingDateTime=${new Date(expected - DAY).toISOString().slice(0, 19)}`
    const after = await h.tppA.call('GET', path, { token })
    const booked = (after.body.Data.Transaction as Tx[]).find(
      (t) => t.TransactionReference === pending!.TransactionReference,
    )
    expect(booked).toBeDefined()
    expect(booked!.Status).toBe('BOOK')
    expect(booked!.TransactionId).not.toBe(pending!.TransactionId)
    expect(booked!.TransactionId).toMatch(/^tx-/)
    expect(booked!.Amount).toEqual(pending!.Amount)
    expect(booked!.BookingDateTime).toBe(pending!.BookingDateTime)
    expect(booked!.Balance).toBeDefined()
    expect((after.body.Data.Transaction as Tx[]).some((t) => t.TransactionId === pending!.TransactionId)).toBe(false)
  })
})
