import { readFileSync } from 'node:fs'
import type { PsuDirectory } from '../../psus.ts'
import { seedFile } from '../../resources.ts'

/**
 * The product and history parameters of `resources/local-sandbox/products.json`: parties, products,
 * standing orders, direct debits, beneficiaries, card spending patterns, offers. The history generator
 * turns them into transactions; the views read the static parts directly.
 */

export type Range = [number, number]

export interface PartySpec {
  PartyId: string
  PartyNumber?: string
  Name: string
  FullLegalName?: string
  LegalStructure: string
  EmailAddress?: string
  Phone?: string
  Mobile?: string
  Address?: Array<Record<string, string>>
}

export interface AccountPartySpec {
  party: string
  PartyType: 'Sole' | 'Joint' | 'Delegate'
  AccountRole: string
}

export interface ProductSpec {
  ProductId: string
  ProductName: string
  ProductType: 'PersonalCurrentAccount' | 'BusinessCurrentAccount' | 'CommercialCreditCard' | 'SMELoan' | 'Other'
  SecondaryProductId?: string
  OtherProductType?: { Name: string; Description: string }
}

export interface MerchantSpec {
  name: string
  mcc: string
  town: string
  amount: Range
  weight: number
  auth?: 'ConsumerDevice' | 'Contactless' | 'None' | 'PIN'
  /** A foreign merchant: `amount` is in this currency. */
  currency?: string
  country?: string
}

export interface SpendSpec {
  perDay: number
  /** Below this projected balance (pounds; for a card: below this much headroom) discretionary spending slows down. */
  floor: number
  bookingLagDays: Range
  refundRate?: number
  merchants: MerchantSpec[]
}

export interface StandingOrderSpec {
  id: string
  payee: string
  payeeAccount: string
  amount: number
  dayOfMonth: number
  reference: string
  firstPaymentDate: string
}

export interface DirectDebitSpec {
  id: string
  name: string
  mandate: string
  amount: Range
  dayOfMonth: number
  /** Months (1-12) it is collected in; every month when absent. */
  months?: number[]
}

export interface BeneficiarySpec {
  id: string
  name: string
  account: string
  reference: string
  type: 'Trusted' | 'Ordinary'
  perMonth: number
  amount: Range
  /** Share of the payments to this beneficiary set up in advance (they show as scheduled payments first). */
  scheduledShare: number
  references: string[]
}

export interface IncomingSpec {
  from: string
  account: string
  perMonth: number
  amount: Range
  references: string[]
}

export interface CardSpec {
  scheme: 'VISA' | 'MasterCard'
  creditLimit: number
  purchaseApr: number
  cashApr: number
  statementDay: number
  paymentDueDays: number
  minimumPayment: { percent: number; floor: number }
  repayment:
    | { mode: 'full'; fromAccountId: string; method: 'DD' }
    | { mode: 'partial'; share: number; payerName: string; payerAccount: string; method: 'FPI' }
  cashbackPercent?: number
  foreign?: { share: number; ratesPerGbp: Record<string, number> }
}

export interface OfferSpec {
  OfferId: string
  OfferType: 'BalanceTransfer' | 'LimitIncrease' | 'MoneyTransfer' | 'Other' | 'PromotionalRate'
  Description: string
  startOffsetDays: number
  endOffsetDays: number
  Rate?: string
  Value?: number
  Term?: string
  URL?: string
  Amount?: number
}

export interface AccountSpec {
  seed: string
  accountName: string
  parties: AccountPartySpec[]
  product: ProductSpec
  openingBalance: number
  overdraftLimit?: number
  debitCard?: { scheme: 'VISA' | 'MasterCard'; pan: string }
  salary?: {
    payer: string
    payerAccount: string
    amount: number
    dayOfMonth: number
    code: 'BGC' | 'FPI'
    reference: string
  }
  standingOrders?: StandingOrderSpec[]
  directDebits?: DirectDebitSpec[]
  cardRepayment?: { cardAccountId: string; name: string; mandate: string; directDebitId: string }
  beneficiaries?: BeneficiarySpec[]
  incoming?: IncomingSpec[]
  cash?: { perMonth: number; amounts: number[]; atms: string[] }
  cheques?: { perYear: number; amount: Range; drawers: string[] }
  sweep?: { dayOfMonth: number; above: number; keep: number; toAccount: string; name: string; reference: string }
  card?: CardSpec
  offers?: OfferSpec[]
  spend: SpendSpec
}

export interface Catalogue {
  generation: { historyDays: number; futureDays: number; reanchorAfterDays: number }
  servicer: { SchemeName: string; Identification: string; Name: string }
  parties: Record<string, PartySpec>
  psuParty: Record<string, string>
  accounts: Record<string, AccountSpec>
}

/** Loads the catalogue and checks it against the PSU directory; a mistake names the file and the field. */
export function loadCatalogue(psus: PsuDirectory, file = seedFile('products.json')): Catalogue {
  const catalogue = JSON.parse(readFileSync(file, 'utf8')) as Catalogue
  const fail = (what: string): never => {
    throw new Error(`${file}: ${what}`)
  }
  const g = catalogue.generation
  if (!(g?.historyDays > 0 && g.futureDays >= 7 && g.reanchorAfterDays > 0))
    fail('generation needs historyDays > 0, futureDays >= 7 and reanchorAfterDays > 0')
  for (const psu of psus.psus) {
    const partyRef = catalogue.psuParty[psu.psuId]
    if (!partyRef || !catalogue.parties[partyRef]) fail(`psuParty has no party for ${psu.psuId}`)
    for (const account of psu.accounts) {
      if (account.accountTypeCode === 'SVGS') continue
      const spec = catalogue.accounts[account.accountId]
      if (!spec) fail(`accounts has no entry for ${account.accountId} (${account.accountTypeCode})`)
      for (const p of spec!.parties)
        if (!catalogue.parties[p.party]) fail(`accounts.${account.accountId}.parties names unknown party "${p.party}"`)
      if (account.accountTypeCode === 'CARD' && !spec!.card)
        fail(`accounts.${account.accountId} is a credit card and needs "card"`)
      if (!spec!.spend?.merchants?.length) fail(`accounts.${account.accountId}.spend.merchants is empty`)
      for (const m of spec!.spend.merchants)
        if (m.currency && !spec!.card?.foreign?.ratesPerGbp[m.currency])
          fail(
            `accounts.${account.accountId}: merchant ${m.name} is in ${m.currency}, which card.foreign.ratesPerGbp lacks`,
          )
      const repay = spec!.card?.repayment
      if (repay?.mode === 'full') {
        const payer = catalogue.accounts[repay.fromAccountId]
        if (payer?.cardRepayment?.cardAccountId !== account.accountId)
          fail(
            `accounts.${account.accountId} is repaid from ${repay.fromAccountId}, which needs cardRepayment.cardAccountId = ${account.accountId}`,
          )
      }
    }
  }
  return catalogue
}
