import { describe, expect, it } from 'vitest'
import { ObApiError } from '../../../../src-main/local-sandbox/http/ob-error.ts'
import {
  checkAccountIdentification,
  ibanChecksumOk,
} from '../../../../src-main/local-sandbox/pis/rules/account-identification.ts'
import { amountToUnits, decimalPlaces, unitsToAmount } from '../../../../src-main/local-sandbox/pis/rules/amount.ts'
import {
  checkConsentRules,
  type DomesticConsentData,
} from '../../../../src-main/local-sandbox/pis/rules/consent-rules.ts'
import { firstDifference } from '../../../../src-main/local-sandbox/pis/rules/first-difference.ts'
import { toObPath, validateRequestBody } from '../../../../src-main/local-sandbox/pis/schema/validate-request.ts'

function errorsOf(fn: () => unknown): Array<{ code: string; path?: string }> {
  try {
    fn()
  } catch (err) {
    if (err instanceof ObApiError) return err.details.map(({ code, path }) => ({ code, path }))
    throw err
  }
  return []
}

const data = (): DomesticConsentData => ({
  Initiation: {
    InstructionIdentification: 'I1',
    EndToEndIdentification: 'E1',
    InstructedAmount: { Amount: '10.00', Currency: 'GBP' },
    CreditorAccount: { SchemeName: 'UK.OBIE.SortCodeAccountNumber', Identification: '08080021325698', Name: 'ACME' },
  },
})

describe('amounts', () => {
  it('converts exactly, without floating point', () => {
    expect(amountToUnits('0.1') + amountToUnits('0.2')).toBe(amountToUnits('0.3'))
    expect(amountToUnits('1234567890123.12345')).toBe(123456789012312345n)
    expect(unitsToAmount(amountToUnits('12.5'))).toBe('12.50')
    expect(unitsToAmount(amountToUnits('7'))).toBe('7.00')
    expect(unitsToAmount(-amountToUnits('0.015'))).toBe('-0.015')
    expect(decimalPlaces('1.234')).toBe(3)
    expect(() => amountToUnits('1e3')).toThrow(RangeError)
  })
})

describe('account identification', () => {
  it('validates IBAN check digits (ISO 13616)', () => {
    expect(ibanChecksumOk('GB82WEST12345698765432')).toBe(true)
    expect(ibanChecksumOk('GB82WEST12345698765433')).toBe(false)
  })
  it('U027 for unsupported schemes, U021 for identifications that do not fit', () => {
    expect(checkAccountIdentification({ SchemeName: 'UK.OBIE.Wallet', Identification: 'x' }, 'A')).toEqual([
      expect.objectContaining({ code: 'U027', path: 'A.SchemeName' }),
    ])
    expect(
      checkAccountIdentification({ SchemeName: 'UK.OBIE.SortCodeAccountNumber', Identification: '0808002132569' }, 'A'),
    ).toEqual([expect.objectContaining({ code: 'U021', path: 'A.Identification' })])
    expect(
      checkAccountIdentification({ SchemeName: 'UK.OBIE.IBAN', Identification: 'DE89370400440532013000' }, 'A')[0]
        ?.code,
    ).toBe('U021')
    expect(
      checkAccountIdentification({ SchemeName: 'UK.OBIE.IBAN', Identification: 'GB82WEST12345698765432' }, 'A'),
    ).toEqual([])
  })
})

describe('checkConsentRules', () => {
  it('accepts a plain GBP FPS consent', () => {
    expect(errorsOf(() => checkConsentRules(data(), Date.now()))).toEqual([])
  })
  it('reports each rule with its code and path', () => {
    const d = data()
    d.Initiation.InstructedAmount.Currency = 'USD'
    d.Initiation.LocalInstrument = 'UK.OBIE.SWIFT'
    d.Initiation.DebtorAccount = { SchemeName: 'UK.OBIE.PAN', Identification: '5412750012345678' }
    d.Authorisation = { AuthorisationType: 'Any', CompletionDateTime: '2001-01-01T00:00:00Z' }
    expect(errorsOf(() => checkConsentRules(d, Date.now()))).toEqual([
      { code: 'U023', path: 'Data.Initiation.InstructedAmount.Currency' },
      { code: 'U026', path: 'Data.Initiation.LocalInstrument' },
      { code: 'U027', path: 'Data.Initiation.DebtorAccount.SchemeName' },
      { code: 'U003', path: 'Data.Authorisation.CompletionDateTime' },
    ])
  })
})

describe('firstDifference', () => {
  it('finds the first differing JSON path, ignoring key order', () => {
    expect(firstDifference({ a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1 }, 'X')).toBeUndefined()
    expect(firstDifference({ a: 1, b: { c: [1, 2] } }, { a: 1, b: { c: [1, 3] } }, 'X')).toBe('X.b.c[1]')
    expect(firstDifference({ a: [1] }, { a: [1, 2] }, 'X')).toBe('X.a[1]')
    expect(firstDifference({ a: 1 }, { a: 1, z: 2 }, 'Risk')).toBe('Risk.z')
    expect(firstDifference({ a: '1' }, { a: 1 }, 'X')).toBe('X.a')
    expect(firstDifference({ a: {} }, { a: [] }, 'X')).toBe('X.a')
    expect(firstDifference({ a: null }, { a: {} }, 'X')).toBe('X.a')
  })
})

describe('validateRequestBody', () => {
  it('maps ajv pointers to OB JSON paths', () => {
    expect(toObPath('/Data/Initiation/RemittanceInformation/Unstructured/0')).toBe(
      'Data.Initiation.RemittanceInformation.Unstructured[0]',
    )
    expect(toObPath('/Data/ConsentId')).toBe('Data.ConsentId')
  })
  it('maps each kind of schema failure to its code', () => {
    expect(errorsOf(() => validateRequestBody('consent', { Data: { Initiation: {} } }))).toEqual(
      expect.arrayContaining([
        { code: 'U004', path: 'Risk' },
        { code: 'U004', path: 'Data.Initiation.InstructionIdentification' },
        { code: 'U004', path: 'Data.Initiation.CreditorAccount' },
      ]),
    )
    expect(
      errorsOf(() => validateRequestBody('consent', { Data: { Initiation: data().Initiation, X: 1 }, Risk: {} })),
    ).toEqual([{ code: 'U005', path: 'Data.X' }])
    expect(
      errorsOf(() =>
        validateRequestBody('consent', {
          Data: {
            Initiation: data().Initiation,
            Authorisation: { AuthorisationType: 'Any', CompletionDateTime: '2025-13-01' },
          },
          Risk: {},
        }),
      ),
    ).toEqual([{ code: 'U003', path: 'Data.Authorisation.CompletionDateTime' }])
    expect(
      errorsOf(() =>
        validateRequestBody('consent', {
          Data: { Initiation: data().Initiation },
          Risk: { BeneficiaryAccountType: 'Savings' },
        }),
      ),
    ).toEqual([{ code: 'U002', path: 'Risk.BeneficiaryAccountType' }])
    expect(
      errorsOf(() =>
        validateRequestBody('payment', { Data: { ConsentId: '', Initiation: data().Initiation }, Risk: {} }),
      ),
    ).toEqual([{ code: 'U002', path: 'Data.ConsentId' }])
    expect(errorsOf(() => validateRequestBody('payment', 'text'))).toEqual([{ code: 'U002', path: '' }])
  })
  it('accepts the full v4.0 OBDomestic2 shape (the official file: RelatedDate a date-time, BOTH in capitals)', () => {
    const full = {
      Data: {
        ReadRefundAccount: 'No',
        Initiation: {
          ...data().Initiation,
          LocalInstrument: 'UK.OBIE.CHAPS',
          DebtorAccount: {
            SchemeName: 'UK.OBIE.SortCodeAccountNumber',
            Identification: '40051277001122',
            Name: 'Amelia',
            SecondaryIdentification: 'R1',
            Proxy: { Identification: '+44-7700900000', Code: 'TELE', Type: 'Mobile' },
          },
          UltimateDebtor: {
            Name: 'Amelia',
            LEI: '5493001KJTIIGC8Y1R12',
            PostalAddress: { Country: 'GB', AddressLine: ['1 High St'] },
          },
          UltimateCreditor: { Name: 'ACME Group', SchemeName: 'UK.OBIE.SortCodeAccountNumber', Identification: '1' },
          CreditorPostalAddress: {
            AddressType: 'BIZZ',
            StreetName: 'Acme Way',
            BuildingNumber: '1',
            PostCode: 'EC1A 1AA',
            TownName: 'London',
            Country: 'GB',
          },
          CreditorAgent: { SchemeName: 'UK.OBIE.BICFI', Identification: 'BARCGB22' },
          RemittanceInformation: {
            Unstructured: ['a', 'b'],
            Structured: [
              {
                ReferredDocumentInformation: [
                  { Code: 'CINV', Number: 'INV-1', RelatedDate: '2025-01-31T00:00:00+00:00', LineDetails: ['line'] },
                ],
                ReferredDocumentAmount: 10,
                CreditorReferenceInformation: { Code: 'SCOR', Issuer: 'ACME', Reference: 'R-1' },
                Invoicer: 'ACME',
                Invoicee: 'Amelia',
                TaxRemittance: 'none',
                AdditionalRemittanceInformation: ['x'],
              },
            ],
          },
          RegulatoryReporting: [
            {
              DebitCreditReportingIndicator: 'BOTH',
              Authority: { Name: 'BoE', CountryCode: 'GB' },
              Details: [
                {
                  Type: 'T',
                  Date: '2025-01-01T00:00:00Z',
                  Country: 'GB',
                  Amount: { Amount: '1', Currency: 'GBP' },
                  Information: ['i'],
                },
              ],
            },
          ],
          SupplementaryData: { anything: true },
        },
        Authorisation: { AuthorisationType: 'Single', CompletionDateTime: '2099-01-01T00:00:00+00:00' },
        SCASupportData: {
          RequestedSCAExemptionType: 'EcommerceGoods',
          AppliedAuthenticationApproach: 'SCA',
          ReferencePaymentOrderId: 'dp-1',
        },
      },
      Risk: {
        PaymentContextCode: 'TransferToSelf',
        MerchantCategoryCode: '5967',
        MerchantCustomerIdentification: 'c1',
        ContractPresentIndicator: true,
        BeneficiaryPrepopulatedIndicator: false,
        PaymentPurposeCode: 'CASH',
        CategoryPurposeCode: 'CASH',
        BeneficiaryAccountType: 'Personal',
        DeliveryAddress: { AddressLine: ['1 High St'], TownName: 'London', Country: 'GB' },
      },
    }
    expect(errorsOf(() => validateRequestBody('consent', full))).toEqual([])
  })
})
