/** Request bodies for the PIS tests: a valid v4.0 consent and the payment that matches it. */
import { randomUUID } from 'node:crypto'

export interface ConsentBody {
  Data: { Initiation: Record<string, any>; [k: string]: any } // eslint-disable-line @typescript-eslint/no-explicit-any
  Risk: Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** A valid OBWriteDomesticConsent4: £12.50 by FPS to a sort code and account number. */
export function consentBody(amount = '12.50'): ConsentBody {
  return {
    Data: {
      ReadRefundAccount: 'Yes',
      Initiation: {
        InstructionIdentification: `INSTR-${randomUUID().slice(0, 8)}`,
        EndToEndIdentification: 'E2E-ORDER-4711',
        LocalInstrument: 'UK.OBIE.FPS',
        InstructedAmount: { Amount: amount, Currency: 'GBP' },
        CreditorAccount: {
          SchemeName: 'UK.OBIE.SortCodeAccountNumber',
          Identification: '08080021325698',
          Name: 'ACME Ltd',
        },
        RemittanceInformation: {
          Unstructured: ['Order 4711'],
          Structured: [{ CreditorReferenceInformation: { Code: 'SCOR', Reference: 'ACME-4711' } }],
        },
      },
    },
    Risk: {
      PaymentContextCode: 'EcommerceMerchantInitiatedPayment',
      MerchantCategoryCode: '5967',
      ContractPresentIndicator: false,
    },
  }
}

/** The OBWriteDomestic2 for a consent body: same Initiation and Risk. */
export function paymentBody(consentId: string, consent: ConsentBody): object {
  return {
    Data: { ConsentId: consentId, Initiation: structuredClone(consent.Data.Initiation) },
    Risk: structuredClone(consent.Risk),
  }
}
