import type { OBParty2, OBReadProduct2 } from '../../../plumbing/ob-wire/account-info.ts'
import type { BankAccount } from '../ais-bank.ts'
import type { AccountPartySpec, Catalogue, PartySpec } from '../seed/catalogue.ts'

function partyFields(spec: PartySpec): OBParty2 {
  const { PartyId, PartyNumber, Name, FullLegalName, LegalStructure, EmailAddress, Phone, Mobile, Address } = spec
  return {
    PartyId,
    ...(PartyNumber ? { PartyNumber } : {}),
    Name,
    ...(FullLegalName ? { FullLegalName } : {}),
    LegalStructure,
    ...(EmailAddress ? { EmailAddress } : {}),
    ...(Phone ? { Phone } : {}),
    ...(Mobile ? { Mobile } : {}),
    ...(Address ? { Address } : {}),
  }
}

/** The logged-in PSU as a party (`GET /party`, ReadPartyPSU). */
export function psuPartyView(catalogue: Catalogue, psuId: string): OBParty2 | undefined {
  const ref = catalogue.psuParty[psuId]
  const spec = ref ? catalogue.parties[ref] : undefined
  return spec ? partyFields(spec) : undefined
}

/**
 * The parties of an account with their role and a link to the account (`GET /accounts/{id}/parties`);
 * the first is the account owner (`GET /accounts/{id}/party`).
 */
export function accountPartyViews(a: BankAccount, catalogue: Catalogue, baseUrl: string): OBParty2[] {
  return a.spec.parties.map((rel: AccountPartySpec) => ({
    ...partyFields(catalogue.parties[rel.party]!),
    PartyType: rel.PartyType,
    AccountRole: rel.AccountRole,
    Relationships: {
      Account: {
        Related: `${baseUrl}/open-banking/v4.0/aisp/accounts/${a.account.accountId}`,
        Id: a.account.accountId,
      },
    },
  }))
}

/** One product of the v4.0 products answer. */
export type ProductView = NonNullable<OBReadProduct2['Data']['Product']>[number]

/** `OBProduct2` of an account: the product it is on (PCA/BCA detail blocks are not published). */
export function productView(a: BankAccount): ProductView {
  const p = a.spec.product
  return {
    AccountId: a.account.accountId,
    ProductId: p.ProductId,
    ProductName: p.ProductName,
    ProductType: p.ProductType,
    ...(p.SecondaryProductId ? { SecondaryProductId: p.SecondaryProductId } : {}),
    ...(p.OtherProductType ? { OtherProductType: p.OtherProductType } : {}),
  }
}
