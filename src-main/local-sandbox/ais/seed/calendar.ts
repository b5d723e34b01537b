/** Day arithmetic of the history generator. Days are UTC calendar days, counted from the anchor day (0). */

export const DAY_MS = 86_400_000
export const HOUR_MS = 3_600_000

/** UTC midnight of the day containing `ms`. */
export function startOfUtcDay(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS
}

interface DayFacts {
  date: Date
  weekday: number
  dayOfMonth: number
  /** 1-12. */
  month: number
  daysInMonth: number
}

export class Calendar {
  /** Facts of the days asked about so far (a few hundred): the generator asks many times per day. */
  readonly #days = new Map<number, DayFacts>()

  constructor(readonly anchorMs: number) {}

  #facts(day: number): DayFacts {
    let f = this.#days.get(day)
    if (!f) {
      const date = new Date(this.dayStart(day))
      const daysInMonth = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate()
      f = { date, weekday: date.getUTCDay(), dayOfMonth: date.getUTCDate(), month: date.getUTCMonth() + 1, daysInMonth }
      this.#days.set(day, f)
    }
    return f
  }

  dayStart(day: number): number {
    return this.anchorMs + day * DAY_MS
  }

  dayOf(ms: number): number {
    return Math.floor((ms - this.anchorMs) / DAY_MS)
  }

  /** Day of the month (1-31) of `day`. */
  dayOfMonth(day: number): number {
    return this.#facts(day).dayOfMonth
  }

  /** The day's UTC midnight as a Date (shared: do not modify it). */
  date(day: number): Date {
    return this.#facts(day).date
  }

  /** 0 = Sunday ... 6 = Saturday. */
  weekday(day: number): number {
    return this.#facts(day).weekday
  }

  isWeekend(day: number): boolean {
    const w = this.weekday(day)
    return w === 0 || w === 6
  }

  /**
   * Whether a payment nominally on `dayOfMonth` is made on `day`: on that date when it is a working day,
   * else on the next working day (`next`, standing orders and direct debits) or the previous one (`prev`,
   * salaries). Returns the nominal date's month (1-12) when it is, else undefined.
   */
  dueMonth(day: number, dayOfMonth: number, shift: 'next' | 'prev'): number | undefined {
    if (this.isWeekend(day)) return undefined
    const candidates = [day]
    const step = shift === 'next' ? -1 : 1
    for (let d = day + step; this.isWeekend(d); d += step) candidates.push(d)
    for (const d of candidates) {
      const f = this.#facts(d)
      if (f.dayOfMonth === Math.min(dayOfMonth, f.daysInMonth)) return f.month
    }
    return undefined
  }

  /** A time on `day`: `hour` plus `seconds`. */
  at(day: number, hour: number, seconds = 0): number {
    return this.dayStart(day) + hour * HOUR_MS + seconds * 1000
  }
}
