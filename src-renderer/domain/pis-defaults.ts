/** A ready-to-send domestic payment (OBWriteDomesticConsent4 Initiation and Risk) for the PIS form and the guide. */

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
  return (globalThis.crypto?.randomUUID?.() ?? `${Date.now()}-${Math.random()}`).replace(/-/g, '').slice(0, 12).toUpperCase()
}

/** The Initiation and Risk objects of a payment; InstructionIdentification is new each time. */
export function paymentInitiation(f: PaymentFields): { initiation: Record<string, unknown>; risk: Record<string, unknown> } {
  const id = shortId()
  return {
    initiation: {
      InstructionIdentification: `INSTR-${id}`,
      EndToEndIdentification: `E2E-${id}`,
      LocalInstrument: f.localInstrument,
      InstructedAmount: { Amount: f.amount, Currency: f.currency },
      CreditorAccount: { SchemeName: f.creditorScheme, Identification: f.creditorIdentification, Name: f.creditorName },
      RemittanceInformation: { Unstructured: [f.reference], Structured: [{ CreditorReferenceInformation: { Code: 'SCOR', Reference: f.reference } }] },
    },
    risk: { PaymentContextCode: 'EcommerceMerchantInitiatedPayment', MerchantCategoryCode: '5967', ContractPresentIndicator: false },
  }
}

/** Problems with the fields, shown before the consent is sent (the bank checks them again). */
export function paymentProblems(f: PaymentFields): string[] {
  const out: string[] = []
  if (!/^\d{1,13}\.\d{1,5}$/.test(f.amount)) out.push('Amount: digits with a decimal point, e.g. 10.00.')
  if (!/^[A-Z]{3}$/.test(f.currency)) out.push('Currency: three capital letters, e.g. GBP.')
  if (!f.creditorIdentification.trim()) out.push('Creditor account: the identification (sort code and account number) is required.')
  if (!f.creditorName.trim()) out.push('Creditor name is required.')
  if (f.reference.length > 35) out.push('Reference: at most 35 characters.')
  return out
}
