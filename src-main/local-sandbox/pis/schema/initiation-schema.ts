import {
  AMOUNT,
  COUNTRY_CODE,
  CREDITOR_ACCOUNT,
  CREDITOR_AGENT,
  DEBTOR_ACCOUNT,
  ISO_DATE,
  ISO_DATE_TIME,
  POSTAL_ADDRESS,
  SUPPLEMENTARY_DATA,
  ULTIMATE_PARTY,
  strictObject,
  text,
  type JsonSchema,
} from './common-schemas.ts'

/** OBRemittanceInformation2 (v4.0): `Unstructured` is an array; `Reference` is gone (use Structured[].CreditorReferenceInformation.Reference). */
export const REMITTANCE_INFORMATION: JsonSchema = strictObject({
  Unstructured: { type: 'array', items: text(140) },
  Structured: {
    type: 'array',
    items: strictObject({
      ReferredDocumentInformation: {
        type: 'array',
        items: strictObject({
          Code: text(4),
          Issuer: text(35),
          Number: text(35),
          RelatedDate: ISO_DATE,
          LineDetails: { type: 'array', items: { type: 'string' } },
        }),
      },
      ReferredDocumentAmount: { type: 'number' },
      CreditorReferenceInformation: strictObject({
        Code: { type: 'string', enum: ['DISP', 'FXDR', 'PUOR', 'RPIN', 'RADM', 'SCOR'] },
        Issuer: text(35),
        Reference: text(35),
      }),
      Invoicer: text(256),
      Invoicee: text(256),
      TaxRemittance: text(140),
      AdditionalRemittanceInformation: { type: 'array', items: text(140), maxItems: 3 },
    }),
  },
})

/** OBRegulatoryReporting1. */
export const REGULATORY_REPORTING: JsonSchema = strictObject({
  DebitCreditReportingIndicator: { type: 'string', enum: ['Credit', 'Debit', 'Both'] },
  Authority: strictObject({ Name: text(140), CountryCode: COUNTRY_CODE }),
  Details: {
    type: 'array',
    items: strictObject({
      Type: text(35),
      Date: ISO_DATE_TIME,
      Country: COUNTRY_CODE,
      Amount: AMOUNT,
      Information: { type: 'array', items: text(35) },
    }),
  },
})

/** OBDomestic2: the `Initiation` of a domestic payment consent and of the payment that uses it. */
export const DOMESTIC_INITIATION: JsonSchema = strictObject(
  {
    InstructionIdentification: text(35),
    EndToEndIdentification: text(35),
    LocalInstrument: text(50),
    InstructedAmount: AMOUNT,
    DebtorAccount: DEBTOR_ACCOUNT,
    UltimateDebtor: ULTIMATE_PARTY,
    CreditorAccount: CREDITOR_ACCOUNT,
    UltimateCreditor: ULTIMATE_PARTY,
    CreditorPostalAddress: POSTAL_ADDRESS,
    CreditorAgent: CREDITOR_AGENT,
    RemittanceInformation: REMITTANCE_INFORMATION,
    RegulatoryReporting: { type: 'array', items: REGULATORY_REPORTING, maxItems: 10 },
    SupplementaryData: SUPPLEMENTARY_DATA,
  },
  ['InstructionIdentification', 'EndToEndIdentification', 'InstructedAmount', 'CreditorAccount'],
)
