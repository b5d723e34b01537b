/** Pence (an integer, any sign) as an Open Banking amount string of its absolute value: `1234` → `"12.34"`. */
export function amountString(pence: number): string {
  const abs = Math.abs(Math.round(pence))
  return `${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`
}

/** Pounds (as in the seed file) to pence. */
export function toPence(pounds: number): number {
  return Math.round(pounds * 100)
}

/** `{Amount, Currency}` of the absolute value of `pence`. */
export function obAmount(pence: number, currency = 'GBP'): { Amount: string; Currency: string } {
  return { Amount: amountString(pence), Currency: currency }
}

/** Credit for zero and above (v4.0: a zero balance is a credit balance), Debit below. */
export function creditDebit(pence: number): 'Credit' | 'Debit' {
  return pence >= 0 ? 'Credit' : 'Debit'
}
