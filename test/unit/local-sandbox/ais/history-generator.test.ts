import { describe, expect, it } from 'vitest'
import { AisBank } from '../../../../src-main/local-sandbox/ais/ais-bank.ts'
import { BankHistory } from '../../../../src-main/local-sandbox/ais/seed/bank-history.ts'
import { DAY_MS, startOfUtcDay } from '../../../../src-main/local-sandbox/ais/seed/calendar.ts'
import { loadCatalogue } from '../../../../src-main/local-sandbox/ais/seed/catalogue.ts'
import { transactionId } from '../../../../src-main/local-sandbox/ais/seed/ledger.ts'
import { loadPsus } from '../../../../src-main/local-sandbox/psus.ts'

const psus = loadPsus()
const catalogue = loadCatalogue(psus)
const ACCOUNTS = ['acc-amelia-current', 'acc-amelia-card', 'acc-rahul-current', 'acc-grace-current', 'acc-grace-card']

function history(nowMs: number, anchorMs = startOfUtcDay(nowMs)): BankHistory {
  const h = new BankHistory(catalogue, psus, anchorMs)
  h.ensure(nowMs)
  return h
}

function fingerprint(h: BankHistory, accountId: string, untilMs: number): string[] {
  const l = h.ledger(accountId)!
  return l.entries
    .filter((e) => e.authAt <= untilMs)
    .map(
      (e) =>
        `${transactionId(l, e, false)} ${e.authAt} ${e.bookAt} ${e.pence} ${e.code} ${e.reference} ${e.balanceAfter}`,
    )
}

/** Anchors across a year, so the calendar (weekends, month lengths) differs. */
const NOWS = Array.from({ length: 8 }, (_, k) => Date.parse('2026-01-03T13:00:00Z') + k * 47 * DAY_MS)

describe('the seeded history generator', () => {
  it('gives the same history on every start with the same anchor', () => {
    const now = NOWS[0]!
    const a = history(now)
    const b = history(now)
    for (const id of ACCOUNTS)
      expect(fingerprint(a, id, now + 40 * DAY_MS), id).toEqual(fingerprint(b, id, now + 40 * DAY_MS))
  })

  it('gives the same history however the generation is split as the clock moves', () => {
    const now = NOWS[1]!
    const stepwise = new BankHistory(catalogue, psus, startOfUtcDay(now))
    for (let t = now; t <= now + 30 * DAY_MS; t += 3 * DAY_MS) stepwise.ensure(t)
    const once = history(now + 30 * DAY_MS, startOfUtcDay(now))
    for (const id of ACCOUNTS)
      expect(fingerprint(stepwise, id, now + 30 * DAY_MS), id).toEqual(fingerprint(once, id, now + 30 * DAY_MS))
  })

  it('gives the same history however the generation is split by account, and makes only the groups asked for', () => {
    const now = NOWS[3]!
    const split = new BankHistory(catalogue, psus, startOfUtcDay(now))
    // Amelia's card is repaid from her current account: asking for the card makes both, and nobody else's.
    split.ensure(now, ['acc-amelia-card'])
    for (const id of ['acc-rahul-current', 'acc-grace-current', 'acc-grace-card'])
      expect(split.ledger(id)!.entries, id).toHaveLength(0)
    expect(split.ledger('acc-amelia-current')!.entries.length).toBeGreaterThan(1000)
    split.ensure(now + 20 * DAY_MS, ['acc-grace-card', 'acc-amelia-current'])
    split.ensure(now + 20 * DAY_MS)
    const once = history(now + 20 * DAY_MS, startOfUtcDay(now))
    for (const id of ACCOUNTS)
      expect(fingerprint(split, id, now + 20 * DAY_MS), id).toEqual(fingerprint(once, id, now + 20 * DAY_MS))
  })

  it('in the bank, makes an account’s history on its first read and grows what was read as the clock moves', () => {
    const now = NOWS[4]!
    const bank = new AisBank(psus, startOfUtcDay(now), catalogue)
    const amelia = bank.at(now).account('acc-amelia-current')!
    expect(bank.history.ledger('acc-grace-current')!.entries).toHaveLength(0)
    const generated = amelia.ledger.entries.length
    expect(generated).toBeGreaterThan(1000)
    // A later read of another account: Amelia's history, held by the caller, has grown too.
    bank.at(now + 60 * DAY_MS).account('acc-grace-card')
    expect(amelia.ledger.entries.length).toBeGreaterThan(generated)
    expect(bank.statements('acc-amelia-card', now + 60 * DAY_MS).length).toBeGreaterThan(10)
    const once = history(now + 60 * DAY_MS, startOfUtcDay(now))
    for (const id of ['acc-amelia-current', 'acc-amelia-card', 'acc-grace-card'])
      expect(fingerprint(bank.history, id, now + 60 * DAY_MS), id).toEqual(fingerprint(once, id, now + 60 * DAY_MS))
    expect(bank.history.ledger('acc-rahul-current')!.entries).toHaveLength(0)
  })

  it('keeps booked entries immutable as the history grows (ids, balances, booking times)', () => {
    const now = NOWS[2]!
    const h = new BankHistory(catalogue, psus, startOfUtcDay(now))
    h.ensure(now)
    const before = fingerprint(h, 'acc-amelia-current', now).filter((line) => Number(line.split(' ')[2]) <= now)
    h.ensure(now + 120 * DAY_MS)
    const after = fingerprint(h, 'acc-amelia-current', now).filter((line) => Number(line.split(' ')[2]) <= now)
    expect(after).toEqual(before)
  })

  for (const now of NOWS) {
    it(`holds its promises for the history anchored on ${new Date(now).toISOString().slice(0, 10)}`, () => {
      const h = history(now)
      const visible = (id: string) => h.ledger(id)!.entries.filter((e) => e.authAt <= now)
      const amelia = visible('acc-amelia-current')
      expect(amelia.length).toBeGreaterThan(1000)
      expect((now - amelia[0]!.authAt) / DAY_MS).toBeGreaterThan(400)
      for (const id of ACCOUNTS.slice(1)) {
        expect(visible(id).length, id).toBeGreaterThan(250)
        expect(visible(id).length, id).toBeLessThan(amelia.length)
      }
      // Pending card transactions in the last few days, somewhere.
      const pending = ACCOUNTS.flatMap((id) => h.ledger(id)!.pendingAt(now))
      expect(pending.length).toBeGreaterThan(0)
      for (const e of pending) {
        expect(now - e.authAt).toBeLessThan(4 * DAY_MS)
        expect(['DEB', 'CPT', 'CHQ', 'PURCHASE', 'REFUND']).toContain(e.code)
      }
      // Running balances follow the booking order.
      for (const id of ACCOUNTS) {
        const l = h.ledger(id)!
        let balance = l.openingPence
        for (const e of l.entries) {
          balance += e.pence
          expect(e.balanceAfter).toBe(balance)
        }
      }
      // A credit card stays within its limit; current accounts stay near their arranged overdraft.
      for (const [id, limit] of [
        ['acc-amelia-card', 550_000],
        ['acc-grace-card', 800_000],
      ] as const) {
        expect(Math.min(...h.ledger(id)!.entries.map((e) => e.balanceAfter))).toBeGreaterThan(-limit)
      }
      // Card payments are declined past the arranged overdraft; fixed bills may go a little beyond it.
      for (const [id, floor] of [
        ['acc-amelia-current', -150_000],
        ['acc-rahul-current', -200_000],
        ['acc-grace-current', 0],
      ] as const) {
        expect(Math.min(...h.ledger(id)!.entries.map((e) => e.balanceAfter)), id).toBeGreaterThan(floor)
      }
    })
  }

  it("repays Amelia's card in full by direct debit from her current account, matching amounts on the same day", () => {
    const now = NOWS[3]!
    const h = history(now)
    const payments = h.ledger('acc-amelia-card')!.entries.filter((e) => e.code === 'PAYMENT' && e.authAt <= now)
    const debits = h
      .ledger('acc-amelia-current')!
      .entries.filter((e) => e.mandateId === 'DD-AH-0007' && e.authAt <= now)
    expect(payments.length).toBeGreaterThanOrEqual(12)
    expect(debits.map((e) => [startOfUtcDay(e.bookAt), -e.pence])).toEqual(
      payments.map((e) => [startOfUtcDay(e.bookAt), e.pence]),
    )
    // Each payment clears the statement before it.
    const statements = h.statements('acc-amelia-card').filter((s) => s.issuedAt <= now)
    for (const s of statements.slice(0, -1)) {
      const paid = payments.find((p) => startOfUtcDay(p.bookAt) === s.dueAt)
      expect(paid?.pence, s.id).toBe(-s.closingPence)
    }
  })

  it('closes monthly statements whose totals add up', () => {
    const now = NOWS[4]!
    const h = history(now)
    for (const id of ['acc-amelia-card', 'acc-grace-card']) {
      const l = h.ledger(id)!
      const statements = h.statements(id).filter((s) => s.issuedAt <= now)
      expect(statements.length, id).toBeGreaterThanOrEqual(13)
      for (const s of statements) {
        const inPeriod = l.entries.filter((e) => e.bookAt >= s.start && e.bookAt < s.end)
        expect(s.openingPence + inPeriod.reduce((sum, e) => sum + e.pence, 0), s.id).toBe(s.closingPence)
        expect(inPeriod.every((e) => e.statement?.id === s.id)).toBe(true)
        expect(s.minimumDuePence).toBeLessThanOrEqual(Math.max(0, -s.closingPence))
      }
    }
    // Grace repays part of each statement, so she pays interest.
    expect(h.ledger('acc-grace-card')!.entries.some((e) => e.code === 'INTEREST')).toBe(true)
  })

  it('uses realistic codes per product and unique references', () => {
    const now = NOWS[5]!
    const h = history(now)
    const codes = (id: string) =>
      new Set(
        h
          .ledger(id)!
          .entries.filter((e) => e.authAt <= now)
          .map((e) => e.code),
      )
    expect([...codes('acc-amelia-current')]).toEqual(
      expect.arrayContaining(['DEB', 'DD', 'SO', 'BGC', 'FPO', 'FPI', 'CPT']),
    )
    expect([...codes('acc-grace-card')]).toEqual(expect.arrayContaining(['PURCHASE', 'REFUND', 'PAYMENT', 'INTEREST']))
    expect([...codes('acc-amelia-card')]).not.toContain('DD')
    for (const id of ACCOUNTS) {
      const l = h.ledger(id)!
      expect(new Set(l.entries.map((e) => e.reference)).size, id).toBe(l.entries.length)
      expect(new Set(l.entries.map((e) => transactionId(l, e, false))).size, id).toBe(l.entries.length)
      expect(new Set(l.entries.map((e) => transactionId(l, e, true))).size, id).toBe(l.entries.length)
    }
    const fx = h.ledger('acc-grace-card')!.entries.filter((e) => e.fx)
    expect(fx.length).toBeGreaterThan(20)
    for (const e of fx) expect(Math.abs(e.fx!.minor / e.fx!.ratePerGbp + e.pence)).toBeLessThanOrEqual(1)
  })
})
