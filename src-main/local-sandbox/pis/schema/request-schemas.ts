import { ISO_DATE_TIME, POSTAL_ADDRESS, strictObject, text, type JsonSchema } from './common-schemas.ts'
import { DOMESTIC_INITIATION } from './initiation-schema.ts'

/** v4.0 `OBInternalPaymentContext1Code`. v3.1 had more (PispPayee, BillPayment, EcommerceGoods, …): v4.0 removed them. */
export const PAYMENT_CONTEXT_CODES = [
  'BillingGoodsAndServicesInAdvance',
  'BillingGoodsAndServicesInArrears',
  'EcommerceMerchantInitiatedPayment',
  'FaceToFacePointOfSale',
  'TransferToSelf',
  'TransferToThirdParty',
] as const

/** v3.1.x PaymentContextCode values that v4.0 dropped, named in the error message when a TPP sends one. */
export const V31_PAYMENT_CONTEXT_CODES = ['PispPayee', 'BillPayment', 'EcommerceGoods', 'EcommerceServices', 'Other', 'PartyToParty']

/** OBRisk1 (v4.0): nothing required. */
export const RISK: JsonSchema = strictObject({
  PaymentContextCode: { type: 'string', enum: [...PAYMENT_CONTEXT_CODES] },
  MerchantCategoryCode: text(4, 3),
  MerchantCustomerIdentification: text(70),
  ContractPresentIndicator: { type: 'boolean' },
  BeneficiaryPrepopulatedIndicator: { type: 'boolean' },
  PaymentPurposeCode: text(4),
  CategoryPurposeCode: text(4),
  BeneficiaryAccountType: {
    type: 'string',
    enum: [
      'Business', 'BusinessSavingsAccount', 'Charity', 'Collection', 'Corporate', 'Ewallet', 'Government', 'Investment',
      'ISA', 'JointPersonal', 'Pension', 'Personal', 'PersonalSavingsAccount', 'Premier', 'Wealth',
    ],
  },
  DeliveryAddress: POSTAL_ADDRESS,
})

/** OBAuthorisation1. */
export const AUTHORISATION: JsonSchema = strictObject(
  { AuthorisationType: { type: 'string', enum: ['Any', 'Single'] }, CompletionDateTime: ISO_DATE_TIME },
  ['AuthorisationType'],
)

/** OBSCASupportData1. */
export const SCA_SUPPORT_DATA: JsonSchema = strictObject({
  RequestedSCAExemptionType: {
    type: 'string',
    enum: ['BillPayment', 'ContactlessTravel', 'EcommerceGoods', 'EcommerceServices', 'Kiosk', 'Parking', 'PartyToParty'],
  },
  AppliedAuthenticationApproach: { type: 'string', enum: ['CA', 'SCA'] },
  ReferencePaymentOrderId: text(40),
})

/** OBWriteDomesticConsent4: the body of POST /domestic-payment-consents. */
export const WRITE_DOMESTIC_CONSENT: JsonSchema = strictObject(
  {
    Data: strictObject(
      {
        ReadRefundAccount: { type: 'string', enum: ['Yes', 'No'] },
        Initiation: DOMESTIC_INITIATION,
        Authorisation: AUTHORISATION,
        SCASupportData: SCA_SUPPORT_DATA,
      },
      ['Initiation'],
    ),
    Risk: RISK,
  },
  ['Data', 'Risk'],
)

/** OBWriteDomestic2: the body of POST /domestic-payments. */
export const WRITE_DOMESTIC: JsonSchema = strictObject(
  {
    Data: strictObject({ ConsentId: text(128), Initiation: DOMESTIC_INITIATION }, ['ConsentId', 'Initiation']),
    Risk: RISK,
  },
  ['Data', 'Risk'],
)
