import type { Context } from 'koa'
import { ObApiError } from '../../http/ob-error.ts'

/**
 * The request's query parameters, refusing any not in `allowed` (400 U005: a misspelt filter would
 * otherwise be silently ignored) and any given twice (400 U002).
 */
export function readQuery(ctx: Context, allowed: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of new URLSearchParams(ctx.querystring)) {
    if (!allowed.includes(name)) {
      const accepted = allowed.length ? `it accepts ${allowed.join(', ')}` : 'it takes no query parameters'
      throw new ObApiError(400, {
        code: 'U005',
        path: name,
        message: `unknown query parameter "${name.slice(0, 60)}" for ${ctx.method} ${ctx.path}: ${accepted}`,
      })
    }
    if (name in out)
      throw new ObApiError(400, {
        code: 'U002',
        path: name,
        message: `query parameter ${name} is given twice; give it once`,
      })
    out[name] = value
  }
  return out
}

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?)?(Z|[+\- ]\d{2}:?\d{2})?$/

/**
 * Parses a filter date (v4.0: ISO 8601 without a timezone, time optional, e.g. `2026-01-01T00:00:00` or
 * `2026-01-01`). A timezone, if sent, is ignored (the spec says so); the sandbox reads the value as UTC.
 * With `endOfDay`, a date without a time means the end of that day (so `toBookingDateTime=2026-01-31`
 * includes the 31st). Anything else is 400 U003 naming the parameter.
 */
export function parseFilterDateTime(name: string, value: string, endOfDay: boolean): number {
  const m = DATE_TIME.exec(value.trim())
  const fail = (why: string): never => {
    throw new ObApiError(400, {
      code: 'U003',
      path: name,
      message: `${name} "${value.slice(0, 60)}" ${why}; use an ISO 8601 date-time without timezone such as 2026-01-01T00:00:00, or a date such as 2026-01-01`,
    })
  }
  if (!m) return fail('is not an ISO 8601 date or date-time')
  const [y, mo, d, h = '00', mi = '00', s = '00'] = m.slice(1, 7) as string[]
  const ms = m[7] ? Math.floor(Number(`0${m[7]}`) * 1000) : 0
  const t = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), ms)
  const check = new Date(t)
  if (
    check.getUTCFullYear() !== Number(y) ||
    check.getUTCMonth() !== Number(mo) - 1 ||
    check.getUTCDate() !== Number(d) ||
    Number(h) > 23 ||
    Number(mi) > 59 ||
    Number(s) > 59
  ) {
    return fail('is not a real calendar date and time')
  }
  if (y! < '1900' || y! > '9999') return fail('is out of range')
  return endOfDay && m[4] === undefined ? t + 86_399_999 : t
}

/** The `page` parameter: a whole number from 1 (the default). 400 U002 otherwise. */
export function parsePage(value: string | undefined): number {
  if (value === undefined) return 1
  if (!/^[1-9]\d{0,8}$/.test(value)) {
    throw new ObApiError(400, {
      code: 'U002',
      path: 'page',
      message: `page "${value.slice(0, 30)}" is not a page number; pages are numbered from 1 (follow Links.Next rather than building the URL)`,
    })
  }
  return Number(value)
}
