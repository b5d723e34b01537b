/** A ready-to-send domestic payment (OBWriteDomesticConsent4 Initiation and Risk) for the PIS form and the guide. */
import { BANK_PAYMENT_RULES, ibanChecksumOk, PIS_SCHEMA_LIMITS } from './pis-limits.ts'

export interface PaymentFields {
  amount: string
  currency: string
  creditorScheme: string
  creditorIdentification: string
  creditorName: string
  reference: string
  localInstrument: string
}

export const DEFAULT_PAYMENT: PaymentFields = {
  amount: '10.00',
  currency: 'GBP',
  creditorScheme: 'UK.OBIE.SortCodeAccountNumber',
  creditorIdentification: '08080021325698',
  creditorName: 'ACME Ltd',
  reference: 'OB-CONSOLE-1',
  localInstrument: 'UK.OBIE.FPS',
}

function shortId(): string {
  return (globalThis.crypto?.randomUUID?.() ?? `${Date.now()}-${Math.random()}`)
    .replace(/-/g, '')
    .slice(0, 12)
    .toUpperCase()
}

/** The Initiation and Risk objects of a payment; InstructionIdentification is new each time. */
export function paymentInitiation(f: PaymentFields): {
  initiation: Record<string, unknown>
  risk: Record<string, unknown>
} {
  const id = shortId()
  return {
    initiation: {
      InstructionIdentification: `INSTR-${id}`,
      EndToEndIdentification: `E2E-${id}`,
      LocalInstrument: f.localInstrument,
      InstructedAmount: { Amount: f.amount, Currency: f.currency },
      CreditorAccount: { SchemeName: f.creditorScheme, Identification: f.creditorIdentification, Name: f.creditorName },
      RemittanceInformation: {
        Unstructured: [f.reference],
        Structured: [{ CreditorReferenceInformation: { Code: 'SCOR', Reference: f.reference } }],
      },
    },
    risk: {
      PaymentContextCode: 'EcommerceMerchantInitiatedPayment',
      MerchantCategoryCode: '5967',
      ContractPresentIndicator: false,
    },
  }
}

/** A problem with one field of the payment form, named by the JSON path it fills in the consent request. */
export interface PaymentProblem {
  field: keyof PaymentFields
  path: string
  message: string
}

const INI = 'Data.Initiation'
const AMOUNT = new RegExp(PIS_SCHEMA_LIMITS.amountPattern)
const CURRENCY = new RegExp(PIS_SCHEMA_LIMITS.currencyPattern)
const chars = (n: number) => `${n} character${n === 1 ? '' : 's'}`

type AddProblem = (field: keyof PaymentFields, path: string, message: string) => void

/** The amount: the schema's pattern, then pence for sterling and more than zero. */
function amountProblems(f: PaymentFields, add: AddProblem): void {
  const B = BANK_PAYMENT_RULES
  if (!AMOUNT.test(f.amount))
    add(
      'amount',
      `${INI}.InstructedAmount.Amount`,
      `"${f.amount}" is not an amount: 1 to 13 digits, then optionally a point and 1 to 5 digits (e.g. 10.00).`,
    )
  else {
    const decimals = f.amount.split('.')[1]?.length ?? 0
    if (f.currency === B.currency && decimals > B.minorUnits)
      add(
        'amount',
        `${INI}.InstructedAmount.Amount`,
        `"${f.amount}" has ${decimals} decimal places; ${B.currency} amounts have at most ${B.minorUnits} (pence).`,
      )
    if (Number(f.amount) === 0) add('amount', `${INI}.InstructedAmount.Amount`, 'The amount must be greater than zero.')
  }
}

/** The currency: an ISO 4217 code, and the bank's one. */
function currencyProblems(f: PaymentFields, add: AddProblem): void {
  const B = BANK_PAYMENT_RULES
  if (!CURRENCY.test(f.currency))
    add(
      'currency',
      `${INI}.InstructedAmount.Currency`,
      `"${f.currency}" is not a currency code: three capital letters (ISO 4217), e.g. GBP.`,
    )
  else if (f.currency !== B.currency)
    add(
      'currency',
      `${INI}.InstructedAmount.Currency`,
      `Domestic payments at this bank are in ${B.currency} only, not ${f.currency}.`,
    )
}

/** The local instrument, when given: a v4.0 one, and one the bank takes. */
function localInstrumentProblems(f: PaymentFields, add: AddProblem): void {
  const L = PIS_SCHEMA_LIMITS
  const B = BANK_PAYMENT_RULES
  if (f.localInstrument && !(L.localInstruments as readonly string[]).includes(f.localInstrument))
    add(
      'localInstrument',
      `${INI}.LocalInstrument`,
      `"${f.localInstrument}" is not a v4.0 local instrument (${L.localInstruments.join(', ')}).`,
    )
  else if (f.localInstrument && !(B.localInstruments as readonly string[]).includes(f.localInstrument))
    add(
      'localInstrument',
      `${INI}.LocalInstrument`,
      `The bank takes ${B.localInstruments.join(', ')} for domestic payments.`,
    )
}

/** The creditor account: a v4.0 scheme name, and an identification of its length and (for a sort code and account number or an IBAN) its form. */
function creditorAccountProblems(f: PaymentFields, add: AddProblem): void {
  const L = PIS_SCHEMA_LIMITS
  const B = BANK_PAYMENT_RULES
  if (!(L.schemeNames as readonly string[]).includes(f.creditorScheme))
    add('creditorScheme', `${INI}.CreditorAccount.SchemeName`, `"${f.creditorScheme}" is not a v4.0 scheme name.`)
  const id = f.creditorIdentification
  if (id.length < L.creditorIdentification.minLength)
    add('creditorIdentification', `${INI}.CreditorAccount.Identification`, 'The creditor account is required.')
  else if (id.length > L.creditorIdentification.maxLength)
    add(
      'creditorIdentification',
      `${INI}.CreditorAccount.Identification`,
      `At most ${chars(L.creditorIdentification.maxLength)} (${id.length} now).`,
    )
  else if (f.creditorScheme === 'UK.OBIE.SortCodeAccountNumber' && !B.sortCodeAccountNumber.test(id)) {
    const digits = id.replace(/\D/g, '').length
    add(
      'creditorIdentification',
      `${INI}.CreditorAccount.Identification`,
      `A sort code and account number is 14 digits (6-digit sort code, then 8-digit account number, no spaces or dashes); "${id}" has ${digits} digit${digits === 1 ? '' : 's'}${digits !== id.length ? ' and other characters' : ''}.`,
    )
  } else if (f.creditorScheme === 'UK.OBIE.IBAN' && (!B.gbIban.test(id) || !ibanChecksumOk(id))) {
    add(
      'creditorIdentification',
      `${INI}.CreditorAccount.Identification`,
      `"${id}" is not a valid GB IBAN (GB, 2 check digits, 4-letter bank code, 14 digits, mod-97 check).`,
    )
  }
}

/** The creditor name: required, and within the schema's length. */
function creditorNameProblems(f: PaymentFields, add: AddProblem): void {
  const L = PIS_SCHEMA_LIMITS
  if (f.creditorName.trim().length < L.creditorName.minLength)
    add('creditorName', `${INI}.CreditorAccount.Name`, 'The creditor name is required.')
  else if (f.creditorName.length > L.creditorName.maxLength)
    add(
      'creditorName',
      `${INI}.CreditorAccount.Name`,
      `At most ${chars(L.creditorName.maxLength)} (${f.creditorName.length} now).`,
    )
}

/** The reference: required, and within both the structured and the unstructured lengths. */
function referenceProblems(f: PaymentFields, add: AddProblem): void {
  const L = PIS_SCHEMA_LIMITS
  const refMax = Math.min(L.creditorReference.maxLength, L.remittanceUnstructured.maxLength)
  if (f.reference.length < L.creditorReference.minLength)
    add(
      'reference',
      `${INI}.RemittanceInformation.Structured[0].CreditorReferenceInformation.Reference`,
      'The reference is required (1 character at least).',
    )
  else if (f.reference.length > refMax)
    add(
      'reference',
      `${INI}.RemittanceInformation.Structured[0].CreditorReferenceInformation.Reference`,
      `At most ${chars(refMax)} (${f.reference.length} now).`,
    )
}

/**
 * Every problem with the fields, checked as you type against the official v4.0 schema (pattern, lengths,
 * code lists) and then the bank's rules (sterling in pence, 14-digit sort code and account number, a GB
 * IBAN). The bank checks them again; the form can send anyway to see the bank's own answer.
 */
export function paymentFieldProblems(f: PaymentFields): PaymentProblem[] {
  const out: PaymentProblem[] = []
  const add: AddProblem = (field, path, message) => out.push({ field, path, message })
  amountProblems(f, add)
  currencyProblems(f, add)
  localInstrumentProblems(f, add)
  creditorAccountProblems(f, add)
  creditorNameProblems(f, add)
  referenceProblems(f, add)
  return out
}

/** The problems as sentences (`path: message`). */
export function paymentProblems(f: PaymentFields): string[] {
  return paymentFieldProblems(f).map((p) => `${p.path}: ${p.message}`)
}
