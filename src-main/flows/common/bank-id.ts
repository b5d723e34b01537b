import { AppError } from '../../core/app-error.ts'
import { terminalLine } from '../../plumbing/terminal-text.ts'

/**
 * The identifiers the bank hands out and the console puts in URLs and request objects, with the most
 * characters the official v4.0 schemas allow (`maxLength` of `ConsentId`, `AccountId`, `DomesticPaymentId`).
 */
export const BANK_ID_MAX_LENGTH = { ConsentId: 128, AccountId: 40, DomesticPaymentId: 40 } as const

export type BankIdField = keyof typeof BANK_ID_MAX_LENGTH

/** The characters of an Open Banking identifier. */
const ID_CHARACTERS = /^[A-Za-z0-9._:-]+$/

/** The pattern a field's identifiers must match, as the error names it. */
export function bankIdPattern(field: BankIdField): string {
  return `^[A-Za-z0-9._:\\-]{1,${BANK_ID_MAX_LENGTH[field]}}$`
}

/**
 * Checks an identifier read from a bank's answer before it is used in a URL or a request object: it must
 * match the Open Banking pattern `^[A-Za-z0-9._:\-]{1,N}$` (N from the official schema). Returns the id;
 * otherwise throws `BANK_ID_INVALID` naming the field, the value (control characters escaped) and the pattern.
 *
 * @example const consentId = bankId('ConsentId', Data.ConsentId, 'the new consent')
 */
export function bankId(field: BankIdField, value: unknown, where: string): string {
  const max = BANK_ID_MAX_LENGTH[field]
  if (typeof value === 'string' && value.length <= max && ID_CHARACTERS.test(value)) return value
  const pattern = bankIdPattern(field)
  const shown = typeof value === 'string' ? `"${terminalLine(value, 200)}"` : (JSON.stringify(value) ?? 'nothing')
  const why =
    typeof value !== 'string'
      ? 'it is not a string'
      : value.length === 0
        ? 'it is empty'
        : value.length > max
          ? `it has ${value.length} characters (at most ${max})`
          : 'it holds characters outside letters, digits and . _ : -'
  throw new AppError('BANK_ID_INVALID', {
    what: `The bank's ${field} of ${where} is not an Open Banking identifier: ${shown}.`,
    cause: `${field} must match ${pattern}, and ${why}. A broken or hostile bank; the console does not put such an id in a URL or a request object.`,
    fix: `Nothing in your request causes this: report the answer to the bank (the exchange log holds it whole). The step stopped before the ${field} was used.`,
    details: { field, pattern },
  })
}
