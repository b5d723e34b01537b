import { existsSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  DEFAULT_PAYMENT,
  paymentFieldProblems,
  type PaymentFields,
} from '../../../../src-renderer/domain/pis-defaults.ts'
import { ibanChecksumOk, PIS_SCHEMA_LIMITS } from '../../../../src-renderer/domain/pis-limits.ts'

/** The official v4.0 PIS OpenAPI, beside the repository (shared/spec/official). */
const OFFICIAL = resolve(import.meta.dirname, '../../../../../shared/spec/official/payment-initiation-openapi.json')
const present = existsSync(OFFICIAL)

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

describe.skipIf(!present)(
  `the payment form's limits equal the official v4.0 schema (${present ? OFFICIAL : 'shared/spec/official/payment-initiation-openapi.json is absent: skipped'})`,
  () => {
    const doc = present
      ? (JSON.parse(readFileSync(OFFICIAL, 'utf8')) as { components: { schemas: Record<string, Schema> } })
      : { components: { schemas: {} } }
    const deref = (s: Schema | undefined): Schema => {
      let out = s ?? {}
      while (out.$ref) out = doc.components.schemas[out.$ref.replace('#/components/schemas/', '')] ?? {}
      return out
    }
    const at = (...path: string[]): Schema =>
      path.reduce<Schema>(
        (s, key) => deref(key === '[]' ? deref(s).items : deref(s).properties?.[key]),
        doc.components.schemas['OBWriteDomesticConsent4']!,
      )
    const ini = (...path: string[]) => at('Data', 'Initiation', ...path)
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

    it('scheme names and local instruments', () => {
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
