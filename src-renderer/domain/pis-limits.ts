/**
 * The limits of the official Open Banking v4.0 PIS schema (OBWriteDomesticConsent4) that the payment form
 * checks as you type, and the bank's own rules for domestic payments. A unit test reads the official
 * OpenAPI file and asserts each schema constant here equals it.
 */

export const PIS_SCHEMA_LIMITS = {
  /** OBActiveCurrencyAndAmount_SimpleType */
  amountPattern: '^\\d{1,13}$|^\\d{1,13}\\.\\d{1,5}$',
  /** ActiveOrHistoricCurrencyCode */
  currencyPattern: '^[A-Z]{3,3}$',
  /** Initiation.InstructionIdentification */
  instructionIdentification: { minLength: 1, maxLength: 35 },
  /** Initiation.EndToEndIdentification (Faster Payments reads only the first 31 characters) */
  endToEndIdentification: { minLength: 1, maxLength: 35 },
  /** Initiation.CreditorAccount.Identification (Identification_0) */
  creditorIdentification: { minLength: 1, maxLength: 256 },
  /** Initiation.CreditorAccount.Name */
  creditorName: { minLength: 1, maxLength: 350 },
  /** RemittanceInformation.Unstructured[] items */
  remittanceUnstructured: { minLength: 1, maxLength: 140 },
  /** RemittanceInformation.Structured[].CreditorReferenceInformation.Reference */
  creditorReference: { minLength: 1, maxLength: 35 },
  /** OBInternalAccountIdentification4Code */
  schemeNames: [
    'UK.OBIE.BBAN',
    'UK.OBIE.IBAN',
    'UK.OBIE.PAN',
    'UK.OBIE.Paym',
    'UK.OBIE.SortCodeAccountNumber',
    'UK.OBIE.Wallet',
  ],
  /** OBInternalLocalInstrument1Code */
  localInstruments: [
    'UK.OBIE.BACS',
    'UK.OBIE.BalanceTransfer',
    'UK.OBIE.CHAPS',
    'UK.OBIE.Euro1',
    'UK.OBIE.FPS',
    'UK.OBIE.Link',
    'UK.OBIE.MoneyTransfer',
    'UK.OBIE.Paym',
    'UK.OBIE.SEPACreditTransfer',
    'UK.OBIE.SEPAInstantCreditTransfer',
    'UK.OBIE.SWIFT',
    'UK.OBIE.Target2',
  ],
} as const

/**
 * The bank's rules for a domestic payment, beyond the schema: sterling, in pence (ISO 4217 gives GBP two
 * minor units), greater than zero; a sort code and account number of 14 digits; a GB IBAN; a UK scheme.
 */
export const BANK_PAYMENT_RULES = {
  currency: 'GBP',
  minorUnits: 2,
  sortCodeAccountNumber: /^\d{14}$/,
  gbIban: /^GB\d{2}[A-Z]{4}\d{14}$/,
  accountSchemes: ['UK.OBIE.SortCodeAccountNumber', 'UK.OBIE.IBAN'],
  localInstruments: ['UK.OBIE.FPS', 'UK.OBIE.BACS', 'UK.OBIE.CHAPS'],
} as const

/** ISO 13616 mod-97 check of an IBAN. */
export function ibanChecksumOk(iban: string): boolean {
  const moved = iban.slice(4) + iban.slice(0, 4)
  let rest = 0
  for (const ch of moved) {
    const code = ch.charCodeAt(0)
    const digits = code >= 65 && code <= 90 ? String(code - 55) : ch
    for (const d of digits) rest = (rest * 10 + Number(d)) % 97
  }
  return rest === 1
}
