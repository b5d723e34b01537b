/**
 * JSON Schema building blocks shared by the v4.0 PIS request bodies, written from the v4.0 data
 * dictionaries (OBActiveOrHistoricCurrencyAndAmount, OBCashAccount*, OBProxy1, OBPostalAddress7,
 * OBUltimateCreditor1/OBUltimateDebtor1). Every object has `additionalProperties: false`, as the
 * v4.0 OpenAPI file has.
 */

export type JsonSchema = Record<string, unknown>

/** A string of `min`..`max` characters (the spec's MaxNText types). */
export function text(max: number, min = 1): JsonSchema {
  return { type: 'string', minLength: min, maxLength: max }
}

/** An object with `additionalProperties: false`. */
export function strictObject(properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema {
  return { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false }
}

export const ISO_DATE_TIME: JsonSchema = { type: 'string', format: 'date-time' }
export const ISO_DATE: JsonSchema = { type: 'string', format: 'date' }
export const COUNTRY_CODE: JsonSchema = { type: 'string', pattern: '^[A-Z]{2,2}$' }
export const LEI: JsonSchema = { type: 'string', minLength: 1, maxLength: 20, pattern: '^[A-Z0-9]{18,18}[0-9]{2,2}$' }

/** OBActiveOrHistoricCurrencyAndAmount. */
export const AMOUNT: JsonSchema = strictObject(
  {
    Amount: { type: 'string', pattern: '^\\d{1,13}$|^\\d{1,13}\\.\\d{1,5}$' },
    Currency: { type: 'string', pattern: '^[A-Z]{3,3}$' },
  },
  ['Amount', 'Currency'],
)

/** OBProxy1. */
export const PROXY: JsonSchema = strictObject({ Identification: text(2048), Code: text(4), Type: text(35) }, ['Identification', 'Code'])

/** OBCashAccountDebtor4 (DebtorAccount). */
export const DEBTOR_ACCOUNT: JsonSchema = strictObject(
  { SchemeName: text(40), Identification: text(256), Name: text(350), SecondaryIdentification: text(34), Proxy: PROXY },
  ['SchemeName', 'Identification'],
)

/** OBCashAccountCreditor3 (CreditorAccount): the Name is required. */
export const CREDITOR_ACCOUNT: JsonSchema = strictObject(
  { SchemeName: text(40), Identification: text(256), Name: text(350), SecondaryIdentification: text(34), Proxy: PROXY },
  ['SchemeName', 'Identification', 'Name'],
)

/** OBPostalAddress7. */
export const POSTAL_ADDRESS: JsonSchema = strictObject({
  AddressType: { type: 'string', enum: ['BIZZ', 'DLVY', 'MLTO', 'PBOX', 'ADDR', 'HOME', 'CORR', 'STAT'] },
  Department: text(70),
  SubDepartment: text(70),
  StreetName: text(140),
  BuildingNumber: text(16),
  BuildingName: text(140),
  Floor: text(70),
  UnitNumber: text(16),
  Room: text(70),
  PostBox: text(16),
  TownLocationName: text(140),
  DistrictName: text(140),
  CareOf: text(140),
  PostCode: text(16),
  TownName: text(140),
  CountrySubDivision: text(35),
  Country: COUNTRY_CODE,
  AddressLine: { type: 'array', items: text(70), maxItems: 7 },
})

/** OBUltimateCreditor1 / OBUltimateDebtor1 (same shape). */
export const ULTIMATE_PARTY: JsonSchema = strictObject({
  Name: text(140),
  Identification: text(256),
  LEI,
  SchemeName: text(40),
  PostalAddress: POSTAL_ADDRESS,
})

/** OBBranchAndFinancialInstitutionIdentification6 (CreditorAgent). */
export const CREDITOR_AGENT: JsonSchema = strictObject({
  SchemeName: text(40),
  Identification: text(35),
  Name: text(140),
  LEI,
  PostalAddress: POSTAL_ADDRESS,
})

/** OBSupplementaryData1: the ASPSP defines its content; the sandbox defines none and accepts any object. */
export const SUPPLEMENTARY_DATA: JsonSchema = { type: 'object' }
