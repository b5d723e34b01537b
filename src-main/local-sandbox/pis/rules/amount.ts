/**
 * Money as exact integers: an OB amount string (`^\d{1,13}(\.\d{1,5})?$`) in units of 10^-5, so sums and
 * comparisons never meet binary floating point.
 */

const SCALE_DIGITS = 5

/** `"10.5"` -> 1050000n. Throws on a string that is not an OB amount. */
export function amountToUnits(amount: string): bigint {
  const m = /^(\d{1,13})(?:\.(\d{1,5}))?$/.exec(amount)
  if (!m) throw new RangeError(`not an Open Banking amount: ${JSON.stringify(amount)}`)
  return BigInt(m[1]!) * 10n ** BigInt(SCALE_DIGITS) + BigInt((m[2] ?? '').padEnd(SCALE_DIGITS, '0'))
}

/** 1050000n -> `"10.50"` (two decimals, as GBP amounts are shown). */
export function unitsToAmount(units: bigint): string {
  const negative = units < 0n
  const abs = negative ? -units : units
  const whole = abs / 10n ** BigInt(SCALE_DIGITS)
  const fraction = (abs % 10n ** BigInt(SCALE_DIGITS))
    .toString()
    .padStart(SCALE_DIGITS, '0')
    .replace(/0+$/, '')
    .padEnd(2, '0')
  return `${negative ? '-' : ''}${whole}.${fraction}`
}

/** Number of decimal places an amount string carries. */
export function decimalPlaces(amount: string): number {
  const dot = amount.indexOf('.')
  return dot < 0 ? 0 : amount.length - dot - 1
}
