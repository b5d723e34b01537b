/** Small display helpers (no store, no contract calls). */

/** 1234 → "1.2 KB". */
export function formatBytes(n: number | undefined): string {
  if (n === undefined || !Number.isFinite(n)) return '–'
  if (n < 1024) return `${n} B`
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`
  return `${(n / 1024 / 1024).toFixed(1)} MB`
}

/** 12.345 → "12 ms"; 1234 → "1.23 s". */
export function formatMs(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return '–'
  if (ms < 1000) return `${Math.round(ms)} ms`
  return `${(ms / 1000).toFixed(2)} s`
}

/** An ISO time as a local date and time, keeping the ISO form in a title for copying. */
export function formatDate(iso: string | undefined): string {
  if (!iso) return '–'
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return iso
  dateFormat ??= new Intl.DateTimeFormat(undefined, {
    year: 'numeric',
    month: 'short',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hour12: false,
  })
  return dateFormat.format(d)
}

let dateFormat: Intl.DateTimeFormat | undefined

/** Just the time of an ISO timestamp. */
export function formatTime(iso: string | undefined): string {
  if (!iso) return '–'
  const d = new Date(iso)
  return Number.isNaN(d.getTime())
    ? iso
    : d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false })
}

/** One formatter per currency: a table of thousands of rows formats each amount as it scrolls into view. */
const currencyFormats = new Map<string, Intl.NumberFormat>()

/** "120.50" GBP → "£120.50" (falls back to "120.50 XYZ"). */
export function formatAmount(amount: string | number | undefined, currency: string | undefined): string {
  if (amount === undefined) return '–'
  const n = Number(amount)
  if (!currency || !Number.isFinite(n)) return `${amount}${currency ? ` ${currency}` : ''}`
  try {
    let format = currencyFormats.get(currency)
    if (!format)
      currencyFormats.set(currency, (format = new Intl.NumberFormat(undefined, { style: 'currency', currency })))
    return format.format(n)
  } catch {
    return `${amount} ${currency}`
  }
}

/** JSON for display; strings are shown as they are. */
export function toJson(value: unknown): string {
  if (typeof value === 'string') return value
  try {
    return JSON.stringify(value, null, 2) ?? String(value)
  } catch {
    return String(value)
  }
}

/** Up to `max` characters, with an ellipsis. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`
}
