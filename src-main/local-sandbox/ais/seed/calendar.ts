/** Day arithmetic of the history generator. Days are UTC calendar days, counted from the anchor day (0). */

export const DAY_MS = 86_400_000
export const HOUR_MS = 3_600_000

/** UTC midnight of the day containing `ms`. */
export function startOfUtcDay(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS
}

export class Calendar {
  constructor(readonly anchorMs: number) {}

  dayStart(day: number): number {
    return this.anchorMs + day * DAY_MS
  }

  dayOf(ms: number): number {
    return Math.floor((ms - this.anchorMs) / DAY_MS)
  }

  date(day: number): Date {
    return new Date(this.dayStart(day))
  }

  /** 0 = Sunday ... 6 = Saturday. */
  weekday(day: number): number {
    return this.date(day).getUTCDay()
  }

  isWeekend(day: number): boolean {
    const w = this.weekday(day)
    return w === 0 || w === 6
  }

  /** The day of month `dayOfMonth` falls on in the month of `day`, clamped to the month's length. */
  static clampDayOfMonth(date: Date, dayOfMonth: number): number {
    const last = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate()
    return Math.min(dayOfMonth, last)
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
      const date = this.date(d)
      if (date.getUTCDate() === Calendar.clampDayOfMonth(date, dayOfMonth)) return date.getUTCMonth() + 1
    }
    return undefined
  }

  /** A time on `day`: `hour` plus `seconds`. */
  at(day: number, hour: number, seconds = 0): number {
    return this.dayStart(day) + hour * HOUR_MS + seconds * 1000
  }
}
