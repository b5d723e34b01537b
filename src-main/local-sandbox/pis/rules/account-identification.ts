import type { ObErrorDetail } from '../../http/ob-error.ts'

/** Account schemes the sandbox accepts for domestic payments (a UK bank paying UK accounts). */
export const SUPPORTED_ACCOUNT_SCHEMES = ['UK.OBIE.SortCodeAccountNumber', 'UK.OBIE.IBAN'] as const

export interface AccountIdentification {
  SchemeName: string
  Identification: string
}

/** ISO 13616 check: move the first four characters to the end, letters to numbers, mod 97 must be 1. */
export function ibanChecksumOk(iban: string): boolean {
  const rearranged = iban.slice(4) + iban.slice(0, 4)
  let remainder = 0
  for (const ch of rearranged) {
    const digits = /[A-Z]/.test(ch) ? String(ch.charCodeAt(0) - 55) : ch
    for (const d of digits) remainder = (remainder * 10 + Number(d)) % 97
  }
  return remainder === 1
}

/**
 * Checks an account's scheme and identification: `U027` for a scheme the sandbox does not support,
 * `U021` for an identification that does not fit its scheme (a sort code and account number is 14
 * digits; an IBAN is a valid GB IBAN). Returns the problems (empty when fine).
 */
export function checkAccountIdentification(account: AccountIdentification, path: string): ObErrorDetail[] {
  const { SchemeName: scheme, Identification: id } = account
  if (!(SUPPORTED_ACCOUNT_SCHEMES as readonly string[]).includes(scheme)) {
    return [
      {
        code: 'U027',
        path: `${path}.SchemeName`,
        message: `${path}.SchemeName "${scheme}" is not supported for domestic payments by the sandbox; use ${SUPPORTED_ACCOUNT_SCHEMES.join(' or ')}`,
      },
    ]
  }
  if (scheme === 'UK.OBIE.SortCodeAccountNumber' && !/^\d{14}$/.test(id)) {
    return [
      {
        code: 'U021',
        path: `${path}.Identification`,
        message: `${path}.Identification "${id}" is not a sort code and account number: UK.OBIE.SortCodeAccountNumber takes 14 digits (6-digit sort code then 8-digit account number, no spaces or dashes)`,
      },
    ]
  }
  if (scheme === 'UK.OBIE.IBAN' && (!/^GB\d{2}[A-Z]{4}\d{14}$/.test(id) || !ibanChecksumOk(id))) {
    return [
      {
        code: 'U021',
        path: `${path}.Identification`,
        message: `${path}.Identification "${id}" is not a valid GB IBAN (GB, 2 check digits, 4-letter bank code, 14 digits, mod-97 check): a domestic payment goes to a UK account`,
      },
    ]
  }
  return []
}
