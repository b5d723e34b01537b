import { AccountGenerator } from './account-generator.ts'
import type { AccountSpec } from './catalogue.ts'
import { DAY_MS, type Calendar } from './calendar.ts'
import { toPence } from './money.ts'

const PER_MONTH = 1 / 30.44

/**
 * A current account's day: salary (BGC), standing orders (SO), direct debits (DD, including the credit
 * card repayment the card generator injects), Faster Payments in and out (FPI, FPO; some set up in advance
 * as scheduled payments), cash machine withdrawals (CPT), cheque deposits (CHQ, pending while they clear),
 * debit card purchases (DEB, pending for a day or two) and the monthly sweep of surplus to savings.
 */
export class CurrentAccountGenerator extends AccountGenerator {
  /** Card repayments to collect by direct debit, by day. */
  readonly #injected = new Map<number, Array<{ pence: number; statementReference: string }>>()
  readonly #domestic: AccountSpec['spend']['merchants']

  constructor(accountId: string, spec: AccountSpec, calendar: Calendar, anchorKey: string, startDay: number) {
    super(accountId, spec, calendar, anchorKey, startDay, toPence(spec.openingBalance))
    this.#domestic = spec.spend.merchants.filter((m) => !m.currency)
  }

  /** Schedules the direct debit that repays a credit card statement. */
  injectCardRepayment(day: number, pence: number, statementReference: string): void {
    const list = this.#injected.get(day) ?? []
    list.push({ pence, statementReference })
    this.#injected.set(day, list)
  }

  /** Whether a discretionary payment of `pence` stays within the arranged overdraft (else it is declined). */
  #affordable(pence: number): boolean {
    return this.projected - pence >= -toPence(this.spec.overdraftLimit ?? 0)
  }

  generateDay(day: number): void {
    this.#sweep(day)
    this.#salary(day)
    this.#standingOrders(day)
    this.#directDebits(day)
    this.#cardRepayments(day)
    this.#incoming(day)
    this.#beneficiaries(day)
    this.#cash(day)
    this.#cheques(day)
    this.#purchases(day)
  }

  /**
   * The monthly sweep of surplus to savings. It runs first: on a day it shares with the salary, it moves last
   * month's surplus, not the salary.
   */
  #sweep(day: number): void {
    const s = this.spec
    const cal = this.calendar
    if (
      s.sweep &&
      cal.dueMonth(day, s.sweep.dayOfMonth, 'prev') !== undefined &&
      this.projected > toPence(s.sweep.above)
    ) {
      const pence = Math.floor((this.projected - toPence(s.sweep.keep)) / 5000) * 5000
      const at = cal.at(day, 0, 60)
      if (pence > 0) {
        this.add({
          authAt: at,
          bookAt: at,
          pence: -pence,
          code: 'FPO',
          btc: { Code: 'ICDT', SubCode: 'DMCT' },
          info: `${s.sweep.name.toUpperCase()} ${s.sweep.reference}`,
          reference: this.fpsReference(),
          remittance: s.sweep.reference,
          creditor: { name: s.sweep.name, account: s.sweep.toAccount },
        })
      }
    }
  }

  /** The salary (BGC or a Faster Payment in), on its day of the month. */
  #salary(day: number): void {
    const s = this.spec
    const cal = this.calendar
    const p = this.prng
    if (s.salary && cal.dueMonth(day, s.salary.dayOfMonth, 'prev') !== undefined) {
      const at = cal.at(day, 0, 300)
      this.add({
        authAt: at,
        bookAt: at,
        pence: toPence(s.salary.amount),
        code: s.salary.code,
        btc: { Code: 'RCDT', SubCode: s.salary.code === 'BGC' ? 'SALA' : 'DMCT' },
        info: `${s.salary.payer} ${s.salary.reference}`,
        reference: `BGC${p.digits(14)}`,
        debtor: { name: s.salary.payer, account: s.salary.payerAccount },
      })
    }
  }

  /** Standing orders due today, from their first payment date on. */
  #standingOrders(day: number): void {
    const s = this.spec
    const cal = this.calendar
    const p = this.prng
    for (const [i, so] of (s.standingOrders ?? []).entries()) {
      if (cal.dueMonth(day, so.dayOfMonth, 'next') === undefined) continue
      if (cal.dayStart(day) < Date.parse(`${so.firstPaymentDate}T00:00:00Z`)) continue
      const at = cal.at(day, 0, 1800 + i * 60)
      this.add({
        authAt: at,
        bookAt: at,
        pence: -toPence(so.amount),
        code: 'SO',
        btc: { Code: 'ICDT', SubCode: 'STDO' },
        info: `${so.payee.toUpperCase()} ${so.reference}`,
        reference: `SO${p.digits(16)}`,
        remittance: so.reference,
        creditor: { name: so.payee, account: so.payeeAccount },
        mandateId: so.id,
      })
    }
  }

  /** Direct debits due today (some only in certain months), their amounts drawn in their range. */
  #directDebits(day: number): void {
    const s = this.spec
    const cal = this.calendar
    const p = this.prng
    for (const [i, dd] of (s.directDebits ?? []).entries()) {
      const month = cal.dueMonth(day, dd.dayOfMonth, 'next')
      if (month === undefined || (dd.months && !dd.months.includes(month))) continue
      const at = cal.at(day, 1, i * 60)
      this.add({
        authAt: at,
        bookAt: at,
        pence: -p.int(toPence(dd.amount[0]), toPence(dd.amount[1])),
        code: 'DD',
        btc: { Code: 'RDDT', SubCode: 'PMDD' },
        info: `${dd.name} ${dd.mandate}`,
        reference: `DD${p.digits(16)}`,
        creditor: { name: dd.name },
        mandateId: dd.id,
      })
    }
  }

  /** The credit card repayments the card generator injected for today, collected by direct debit. */
  #cardRepayments(day: number): void {
    const s = this.spec
    const cal = this.calendar
    const p = this.prng
    for (const [i, repay] of (this.#injected.get(day) ?? []).entries()) {
      const r = s.cardRepayment!
      const at = cal.at(day, 1, 1800 + i * 60)
      this.add({
        authAt: at,
        bookAt: at,
        pence: -repay.pence,
        code: 'DD',
        btc: { Code: 'RDDT', SubCode: 'PMDD' },
        info: `${r.name} ${r.mandate} STMT ${repay.statementReference}`,
        reference: `DD${p.digits(16)}`,
        creditor: { name: r.name },
        mandateId: r.directDebitId,
      })
    }
    this.#injected.delete(day)
  }

  /** Faster Payments in, each payer at its monthly rate. */
  #incoming(day: number): void {
    const s = this.spec
    const cal = this.calendar
    const p = this.prng
    for (const inc of s.incoming ?? []) {
      if (!p.chance(inc.perMonth * PER_MONTH)) continue
      const at = cal.at(day, p.int(7, 21), p.int(0, 3599))
      this.add({
        authAt: at,
        bookAt: at,
        pence: p.pence(inc.amount[0], inc.amount[1]),
        code: 'FPI',
        btc: { Code: 'RCDT', SubCode: 'DMCT' },
        info: `${inc.from} ${p.pick(inc.references)}`,
        reference: this.fpsReference(),
        debtor: { name: inc.from, account: inc.account },
      })
    }
  }

  /**
   * Faster Payments out to beneficiaries (some set up in advance as scheduled payments); none while the balance
   * is below the spending floor or when unaffordable.
   */
  #beneficiaries(day: number): void {
    const s = this.spec
    const cal = this.calendar
    const p = this.prng
    const low = this.projected < toPence(s.spend.floor)
    for (const ben of s.beneficiaries ?? []) {
      if (!p.chance(ben.perMonth * PER_MONTH)) continue
      const at = cal.at(day, p.int(8, 20), p.int(0, 3599))
      const scheduled = p.chance(ben.scheduledShare)
      const pence = p.pence(ben.amount[0], ben.amount[1])
      const remittance = p.pick(ben.references)
      if (low || !this.#affordable(pence)) continue
      this.add({
        authAt: at,
        bookAt: at,
        pence: -pence,
        code: 'FPO',
        btc: { Code: 'ICDT', SubCode: 'DMCT' },
        info: `${ben.name.toUpperCase()} ${remittance}`,
        reference: this.fpsReference(),
        remittance,
        creditor: { name: ben.name, account: ben.account },
        beneficiaryId: ben.id,
        scheduledAt: scheduled ? cal.at(day - p.int(3, 14), p.int(7, 22), p.int(0, 3599)) : undefined,
      })
    }
  }

  /** A cash machine withdrawal, at its monthly rate, when affordable. */
  #cash(day: number): void {
    const s = this.spec
    const cal = this.calendar
    const p = this.prng
    if (s.cash && p.chance(s.cash.perMonth * PER_MONTH)) {
      const authAt = cal.at(day, p.int(9, 21), p.int(0, 3599))
      const pence = toPence(p.pick(s.cash.amounts))
      const bookAt = this.bookingTime(authAt, [1, 1])
      if (this.#affordable(pence))
        this.add({
          authAt,
          bookAt,
          pence: -pence,
          code: 'CPT',
          btc: { Code: 'CCRD', SubCode: 'CWDL' },
          info: p.pick(s.cash.atms),
          reference: this.arn(),
          cardAuth: 'PIN',
        })
    }
  }

  /** A cheque deposit, at its yearly rate, pending while it clears. */
  #cheques(day: number): void {
    const s = this.spec
    const cal = this.calendar
    const p = this.prng
    if (s.cheques && p.chance(s.cheques.perYear / 365)) {
      const authAt = cal.at(day, p.int(10, 15), p.int(0, 3599))
      const drawer = p.pick(s.cheques.drawers)
      this.add({
        authAt,
        bookAt: authAt + 2 * DAY_MS,
        pence: p.pence(s.cheques.amount[0], s.cheques.amount[1]),
        code: 'CHQ',
        btc: { Code: 'RCHQ', SubCode: 'CCHQ' },
        info: `CHEQUE DEPOSIT ${p.digits(6)}`,
        reference: `CHQ${p.digits(15)}`,
        debtor: { name: drawer },
      })
    }
  }

  /**
   * Debit card purchases: a Poisson number of them through the day, pending for a day or two, each when
   * affordable.
   */
  #purchases(day: number): void {
    const s = this.spec
    const p = this.prng
    const purchases = p.poisson(this.purchaseRate(s.spend, day, this.projected < toPence(s.spend.floor)))
    const times = Array.from({ length: purchases }, () => this.purchaseTime(day)).sort((a, b) => a - b)
    for (const authAt of times) {
      const m = p.weighted(this.#domestic, (x) => x.weight)
      const pence = p.pence(m.amount[0], m.amount[1])
      const bookAt = this.bookingTime(authAt, s.spend.bookingLagDays)
      if (!this.#affordable(pence)) continue
      this.add({
        authAt,
        bookAt,
        pence: -pence,
        code: 'DEB',
        btc: { Code: 'CCRD', SubCode: 'POSD' },
        info: `${m.name} ${m.town} ${m.country ?? 'GB'}`,
        reference: this.arn(),
        merchant: { name: m.name, mcc: m.mcc, town: m.town, country: m.country ?? 'GB' },
        cardAuth: this.cardAuth(m, pence),
      })
    }
  }
}
