import type { DomesticInitiation } from '../../../../../src-main/local-sandbox/pis/rules/consent-rules.ts'

/** A schema-valid domestic payment `Initiation` of £1.00 to a sort-code account, for stores and rules. */
export const DOMESTIC_INITIATION: DomesticInitiation = {
  InstructionIdentification: 'i-1',
  EndToEndIdentification: 'e-1',
  InstructedAmount: { Amount: '1.00', Currency: 'GBP' },
  CreditorAccount: {
    SchemeName: 'UK.OBIE.SortCodeAccountNumber',
    Identification: '08080021325698',
    Name: 'ACME Inc',
  },
}
