import { existsSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  DEFAULT_PAYMENT,
  paymentFieldProblems,
  type PaymentFields,
} from '../../../../src-renderer/domain/pis-defaults.ts'
import { ibanChecksumOk, PIS_SCHEMA_LIMITS } from '../../../../src-renderer/domain/pis-limits.ts'

/** The v4.0 PIS schemas as the repository keeps them (resources/openapi: constraints kept, prose and namespaced enums dropped). */
const KEPT = resolve(import.meta.dirname, '../../../../resources/openapi/payment-initiation.json')
/** The official v4.0 PIS OpenAPI, beside the repository (shared/spec/official): it alone has the namespaced enums. */
const OFFICIAL = resolve(import.meta.dirname, '../../../../../shared/spec/official/payment-initiation-openapi.json')
const officialPresent = existsSync(OFFICIAL)

type Schema = {
  $ref?: string
  properties?: Record<string, Schema>
  items?: Schema
  pattern?: string
  minLength?: number
  maxLength?: number
  'x-namespaced-enum'?: string[]
  enum?: string[]
}

/** `path` under OBWriteDomesticConsent4's Data.Initiation in `file`, every $ref followed (components or $defs). */
function initiationField(file: string): (...path: string[]) => Schema {
  const doc = JSON.parse(readFileSync(file, 'utf8')) as {
    components?: { schemas: Record<string, Schema> }
    $defs?: Record<string, Schema>
  }
  const schemas = doc.components?.schemas ?? doc.$defs ?? {}
  const deref = (s: Schema | undefined): Schema => {
    let out = s ?? {}
    while (out.$ref) out = schemas[out.$ref.replace(/^#\/(components\/schemas|\$defs)\//, '')] ?? {}
    return out
  }
  return (...path: string[]) =>
    ['Data', 'Initiation', ...path].reduce<Schema>(
      (s, key) => deref(key === '[]' ? deref(s).items : deref(s).properties?.[key]),
      schemas['OBWriteDomesticConsent4']!,
    )
}

describe("the payment form's limits equal the v4.0 schema (resources/openapi/payment-initiation.json)", () => {
  const ini = initiationField(KEPT)
  const lengths = (s: Schema) => ({ minLength: s.minLength, maxLength: s.maxLength })

  it('amount pattern and currency code', () => {
    expect(ini('InstructedAmount', 'Amount').pattern).toBe(PIS_SCHEMA_LIMITS.amountPattern)
    expect(ini('InstructedAmount', 'Currency').pattern).toBe(PIS_SCHEMA_LIMITS.currencyPattern)
  })

  it('identification, name and reference lengths', () => {
    expect(lengths(ini('InstructionIdentification'))).toEqual(PIS_SCHEMA_LIMITS.instructionIdentification)
    expect(lengths(ini('EndToEndIdentification'))).toEqual(PIS_SCHEMA_LIMITS.endToEndIdentification)
    expect(lengths(ini('CreditorAccount', 'Identification'))).toEqual(PIS_SCHEMA_LIMITS.creditorIdentification)
    expect(lengths(ini('CreditorAccount', 'Name'))).toEqual(PIS_SCHEMA_LIMITS.creditorName)
    expect(lengths(ini('RemittanceInformation', 'Unstructured', '[]'))).toEqual(
      PIS_SCHEMA_LIMITS.remittanceUnstructured,
    )
    expect(
      lengths(ini('RemittanceInformation', 'Structured', '[]', 'CreditorReferenceInformation', 'Reference')),
    ).toEqual(PIS_SCHEMA_LIMITS.creditorReference)
  })
})

// The namespaced enums (UK.OBIE.SortCodeAccountNumber, UK.OBIE.FPS…) are in the official file only: the
// repository's copy keeps what ajv validates, and these are extensions ajv ignores.
describe.skipIf(!officialPresent)(
  `the payment form's scheme names and local instruments equal the official file's (${officialPresent ? OFFICIAL : 'shared/spec/official/payment-initiation-openapi.json is absent: skipped'})`,
  () => {
    it('scheme names and local instruments', () => {
      const ini = initiationField(OFFICIAL)
      expect(ini('CreditorAccount', 'SchemeName')['x-namespaced-enum']).toEqual(PIS_SCHEMA_LIMITS.schemeNames)
      expect(ini('LocalInstrument')['x-namespaced-enum']).toEqual(PIS_SCHEMA_LIMITS.localInstruments)
    })
  },
)

describe('payment form checks as you type', () => {
  const problems = (over: Partial<PaymentFields>) =>
    paymentFieldProblems({ ...DEFAULT_PAYMENT, ...over }).map((p) => [p.field, p.path])

  it('passes the default payment, and amounts the schema allows in pence', () => {
    expect(paymentFieldProblems(DEFAULT_PAYMENT)).toEqual([])
    expect(problems({ amount: '10' })).toEqual([])
    expect(problems({ amount: '1234567890123.5' })).toEqual([])
  })

  it('refuses 10.999 GBP (more than pence) and 0.00, naming the path', () => {
    expect(problems({ amount: '10.999' })).toEqual([['amount', 'Data.Initiation.InstructedAmount.Amount']])
    expect(paymentFieldProblems({ ...DEFAULT_PAYMENT, amount: '10.999' })[0]!.message).toContain(
      '3 decimal places; GBP amounts have at most 2',
    )
    expect(problems({ amount: '0.00' })).toEqual([['amount', 'Data.Initiation.InstructedAmount.Amount']])
    expect(problems({ amount: '1.' })).toEqual([['amount', 'Data.Initiation.InstructedAmount.Amount']])
    expect(problems({ amount: '12345678901234' })).toEqual([['amount', 'Data.Initiation.InstructedAmount.Amount']])
  })

  it('refuses a 4-digit account number, a malformed or wrong-checksum IBAN, and other currencies', () => {
    expect(problems({ creditorIdentification: '1234' })).toEqual([
      ['creditorIdentification', 'Data.Initiation.CreditorAccount.Identification'],
    ])
    expect(
      paymentFieldProblems({ ...DEFAULT_PAYMENT, creditorIdentification: '08-00-80 21325698' })[0]!.message,
    ).toContain('has 14 digits and other characters')
    expect(problems({ creditorScheme: 'UK.OBIE.IBAN', creditorIdentification: 'GB82WEST12345698765432' })).toEqual([])
    expect(problems({ creditorScheme: 'UK.OBIE.IBAN', creditorIdentification: 'GB83WEST12345698765432' })).toEqual([
      ['creditorIdentification', 'Data.Initiation.CreditorAccount.Identification'],
    ])
    expect(problems({ currency: 'EUR' })).toEqual([['currency', 'Data.Initiation.InstructedAmount.Currency']])
    expect(problems({ localInstrument: 'UK.OBIE.SWIFT' })).toEqual([
      ['localInstrument', 'Data.Initiation.LocalInstrument'],
    ])
    expect(problems({ localInstrument: 'FPS' })).toEqual([['localInstrument', 'Data.Initiation.LocalInstrument']])
    expect(ibanChecksumOk('GB82WEST12345698765432')).toBe(true)
  })

  it('checks the name and the reference lengths', () => {
    expect(problems({ creditorName: 'x'.repeat(351) })).toEqual([
      ['creditorName', 'Data.Initiation.CreditorAccount.Name'],
    ])
    expect(problems({ reference: 'x'.repeat(35) })).toEqual([])
    expect(problems({ reference: '' })).toEqual([
      ['reference', 'Data.Initiation.RemittanceInformation.Structured[0].CreditorReferenceInformation.Reference'],
    ])
  })
})
