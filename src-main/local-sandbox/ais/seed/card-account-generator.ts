import { AccountGenerator } from './account-generator.ts'
import type { AccountSpec, CardSpec, MerchantSpec } from './catalogue.ts'
import { HOUR_MS, type Calendar } from './calendar.ts'
import type { CurrentAccountGenerator } from './current-account-generator.ts'
import type { LedgerEntry } from './ledger.ts'
import { toPence } from './money.ts'

/** One monthly credit card statement, computed when its period closes. */
export interface StatementRecord {
  id: string
  reference: string
  accountId: string
  /** Sandbox ms: the period is [start, end). */
  start: number
  end: number
  issuedAt: number
  dueAt: number
  openingPence: number
  closingPence: number
  purchasesPence: number
  creditsPence: number
  paymentsPence: number
  interestPence: number
  cashbackPence: number
  minimumDuePence: number
  creditLimitPence: number
  purchaseApr: number
  cashApr: number
  creditCount: number
  debitCount: number
}

interface PlannedRefund {
  merchant: MerchantSpec
  pence: number
  fx?: LedgerEntry['fx']
}

/**
 * A credit card's day: purchases (PURCHASE, pending for one to three days; some abroad, with currency
 * exchange details), refunds of earlier purchases (REFUND), and on the statement day the statement itself:
 * interest on a balance not repaid in full (INTEREST), cashback (CASHBACK), and the repayment on the due
 * date (PAYMENT): in full by direct debit from the PSU's current account, or partly by Faster Payment.
 */
export class CardAccountGenerator extends AccountGenerator {
  readonly statements: StatementRecord[] = []
  readonly card: CardSpec
  /** Every entry of the account, for statement totals. */
  readonly #all: LedgerEntry[] = []
  readonly #refunds = new Map<number, PlannedRefund[]>()
  readonly #domestic: MerchantSpec[]
  readonly #foreign: MerchantSpec[]
  #periodStart: number
  /** Owed after the last repayment, carried into the next period (interest accrues on it). */
  #carriedPence = 0

  constructor(
    accountId: string,
    spec: AccountSpec,
    calendar: Calendar,
    anchorKey: string,
    startDay: number,
    readonly pan: string,
    /** The current account a full repayment is collected from by direct debit. */
    readonly payer?: { generator: CurrentAccountGenerator; name: string; account: string },
  ) {
    super(accountId, spec, calendar, anchorKey, startDay, toPence(spec.openingBalance))
    this.card = spec.card!
    this.#periodStart = calendar.dayStart(startDay)
    this.#domestic = spec.spend.merchants.filter((m) => !m.currency)
    this.#foreign = spec.spend.merchants.filter((m) => m.currency)
  }

  protected override onAdd(entry: LedgerEntry): void {
    this.#all.push(entry)
  }

  generateDay(day: number): void {
    const cal = this.calendar
    const p = this.prng
    if (cal.dayOfMonth(day) === this.card.statementDay && !this.isFirstDay(day)) this.#closeStatement(day)

    for (const refund of this.#refunds.get(day) ?? []) {
      const authAt = this.purchaseTime(day)
      const m = refund.merchant
      this.add({
        authAt,
        bookAt: this.bookingTime(authAt, this.spec.spend.bookingLagDays),
        pence: refund.pence,
        code: 'REFUND',
        btc: { Code: 'CCRD', SubCode: 'RIMB' },
        info: `REFUND ${m.name} ${m.town} ${m.country ?? 'GB'}`,
        reference: this.arn(),
        merchant: { name: m.name, mcc: m.mcc, town: m.town, country: m.country ?? 'GB' },
        cardAuth: m.auth ?? 'None',
        fx: refund.fx,
      })
    }
    this.#refunds.delete(day)

    const headroom = toPence(this.card.creditLimit) + this.projected
    const damped = headroom < Math.max(toPence(this.spec.spend.floor), toPence(this.card.creditLimit) * 0.15)
    const count = p.poisson(this.purchaseRate(this.spec.spend, day, damped))
    const times = Array.from({ length: count }, () => this.purchaseTime(day)).sort((a, b) => a - b)
    for (const authAt of times) {
      const abroad = this.#foreign.length > 0 && p.chance(this.card.foreign?.share ?? 0)
      const m = p.weighted(abroad ? this.#foreign : this.#domestic, (x) => x.weight)
      let pence: number
      let fx: LedgerEntry['fx']
      if (m.currency) {
        const minor = p.pence(m.amount[0], m.amount[1])
        const ratePerGbp = this.card.foreign!.ratesPerGbp[m.currency]!
        pence = Math.max(1, Math.round(minor / ratePerGbp))
        fx = { currency: m.currency, minor, ratePerGbp }
      } else {
        pence = p.pence(m.amount[0], m.amount[1])
      }
      const bookAt = this.bookingTime(authAt, this.spec.spend.bookingLagDays)
      if (toPence(this.card.creditLimit) + this.projected - pence < 0) continue
      this.add({
        authAt,
        bookAt,
        pence: -pence,
        code: 'PURCHASE',
        btc: { Code: 'CCRD', SubCode: 'POSC' },
        info: `${m.name} ${m.town} ${m.country ?? 'GB'}`,
        reference: this.arn(),
        merchant: { name: m.name, mcc: m.mcc, town: m.town, country: m.country ?? 'GB' },
        cardAuth: this.cardAuth(m, pence),
        fx,
      })
      if (this.spec.spend.refundRate && p.chance(this.spec.spend.refundRate)) {
        const when = day + p.int(2, 12)
        const list = this.#refunds.get(when) ?? []
        list.push({ merchant: m, pence, fx })
        this.#refunds.set(when, list)
      }
    }
  }

  /** Closes the statement period ending at the start of `day`, charges interest and schedules the repayment. */
  #closeStatement(day: number): void {
    const end = this.calendar.dayStart(day)
    const start = this.#periodStart
    this.#chargeInterest(end)
    const { purchases, cashback } = this.#payCashback(start, end)
    const statement = this.#issueStatement(day, { start, end, purchases, cashback })
    this.#periodStart = end
    this.#scheduleRepayment(statement)
  }

  /** Interest on the balance carried from the last statement, booked a minute before the period ends. */
  #chargeInterest(end: number): void {
    if (this.#carriedPence <= 0) return
    const interest = Math.round((this.#carriedPence * this.card.purchaseApr) / 100 / 12)
    if (interest <= 0) return
    this.add({
      authAt: end - 60_000,
      bookAt: end - 60_000,
      pence: -interest,
      code: 'INTEREST',
      btc: { Code: 'MDOP', SubCode: 'INTR' },
      info: `INTEREST ON PURCHASES ${this.card.purchaseApr}% APR`,
      reference: `INT${this.prng.digits(15)}`,
    })
  }

  /** The period's purchases net of refunds, and the cashback on them, booked half a minute before the period ends. */
  #payCashback(start: number, end: number): { purchases: number; cashback: number } {
    let purchases = 0
    let refunds = 0
    for (const e of this.#all)
      if (e.bookAt >= start && e.bookAt < end) {
        if (e.code === 'PURCHASE') purchases -= e.pence
        if (e.code === 'REFUND') refunds += e.pence
      }
    const cashback = Math.floor(((purchases - refunds) * (this.card.cashbackPercent ?? 0)) / 100)
    if (cashback > 0) {
      this.add({
        authAt: end - 30_000,
        bookAt: end - 30_000,
        pence: cashback,
        code: 'CASHBACK',
        btc: { Code: 'MCOP', SubCode: 'OTHR' },
        info: `CASHBACK ${this.card.cashbackPercent}% ON PURCHASES`,
        reference: `CBK${this.prng.digits(15)}`,
      })
    }
    return { purchases, cashback }
  }

  /**
   * Issues the statement of the period: its entries are marked with it, its balances and totals added up, the
   * minimum payment worked out. Returns what the repayment needs.
   */
  #issueStatement(
    day: number,
    period: { start: number; end: number; purchases: number; cashback: number },
  ): { owed: number; minimumDue: number; dueDay: number; reference: string } {
    const { start, end } = period
    const date = this.calendar.date(day)
    const id = `${this.accountId}-stm-${date.toISOString().slice(0, 10).replace(/-/g, '')}`
    const reference = `${date.toISOString().slice(0, 7).replace('-', '')}-${this.pan.slice(-4)}`
    const issuedAt = end + 2 * HOUR_MS
    let opening = this.spec.openingBalance * 100
    let closing = opening
    const totals = { credits: 0, payments: 0, interest: 0, creditCount: 0, debitCount: 0 }
    for (const e of this.#all) {
      if (e.bookAt < start) opening += e.pence
      if (e.bookAt < end) closing += e.pence
      if (e.bookAt < start || e.bookAt >= end) continue
      e.statement = { id, reference, issuedAt }
      if (e.pence > 0) {
        totals.credits += e.pence
        totals.creditCount++
      } else totals.debitCount++
      if (e.code === 'PAYMENT') totals.payments += e.pence
      if (e.code === 'INTEREST') totals.interest -= e.pence
    }
    opening = Math.round(opening)
    closing = Math.round(closing)
    const owed = Math.max(0, -closing)
    const min = this.card.minimumPayment
    const minimumDue = Math.min(owed, Math.max(toPence(min.floor), Math.round((owed * min.percent) / 100)))
    const dueDay = day + this.card.paymentDueDays
    this.statements.push({
      id,
      reference,
      accountId: this.accountId,
      start,
      end,
      issuedAt,
      dueAt: this.calendar.dayStart(dueDay),
      openingPence: opening,
      closingPence: closing,
      purchasesPence: period.purchases,
      creditsPence: totals.credits,
      paymentsPence: totals.payments,
      interestPence: totals.interest,
      cashbackPence: period.cashback,
      minimumDuePence: minimumDue,
      creditLimitPence: toPence(this.card.creditLimit),
      purchaseApr: this.card.purchaseApr,
      cashApr: this.card.cashApr,
      creditCount: totals.creditCount,
      debitCount: totals.debitCount,
    })
    return { owed, minimumDue, dueDay, reference }
  }

  /**
   * The repayment of a statement on its due day: in full (collected by direct debit from the paying current
   * account) or a share of it; what is not repaid is carried, and charged interest at the next statement.
   */
  #scheduleRepayment(statement: { owed: number; minimumDue: number; dueDay: number; reference: string }): void {
    const { owed, minimumDue, dueDay, reference } = statement
    const repay = this.card.repayment
    const pay = repay.mode === 'full' ? owed : Math.min(owed, Math.max(minimumDue, Math.round(owed * repay.share)))
    this.#carriedPence = owed - pay
    if (pay <= 0) return
    const at = this.calendar.at(dueDay, 1, 1800)
    const debtor =
      repay.mode === 'full' && this.payer
        ? { name: this.payer.name, account: this.payer.account }
        : repay.mode === 'partial'
          ? { name: repay.payerName, account: repay.payerAccount }
          : undefined
    this.add({
      authAt: at,
      bookAt: at,
      pence: pay,
      code: 'PAYMENT',
      btc: { Code: 'RCDT', SubCode: repay.method === 'DD' ? 'OTHR' : 'DMCT' },
      info: 'PAYMENT RECEIVED - THANK YOU',
      reference: `${repay.method}${this.prng.digits(16)}`,
      debtor,
    })
    if (repay.mode === 'full') this.payer?.generator.injectCardRepayment(dueDay, pay, reference)
  }
}
