import { readFileSync } from 'node:fs'
import { seedFile } from './resources.ts'

export type AccountTypeCode = 'CACC' | 'CARD' | 'SVGS'

export interface SeedAccount {
  accountId: string
  accountTypeCode: AccountTypeCode
  accountCategory: 'Personal' | 'Business'
  currency: string
  nickname: string
  description: string
  scheme: 'UK.OBIE.SortCodeAccountNumber' | 'UK.OBIE.PAN' | 'UK.OBIE.IBAN'
  identification: string
  openingDate: string
}

export interface Psu {
  psuId: string
  username: string
  password: string
  name: string
  accounts: SeedAccount[]
}

export interface PsuDirectory {
  psus: Psu[]
  /** The PSU a headless client's authorisation approves as. */
  headlessPsu: Psu
  byUsername(username: string): Psu | undefined
  byId(psuId: string): Psu | undefined
  /** The account and its owner, or undefined. */
  account(accountId: string): { psu: Psu; account: SeedAccount } | undefined
}

/** Only the credit card and the current account can be shared through AIS (the spec's section 1.5). */
export function isShareableThroughAis(account: Pick<SeedAccount, 'accountTypeCode'>): boolean {
  return account.accountTypeCode === 'CACC' || account.accountTypeCode === 'CARD'
}

export function loadPsus(file = seedFile('psus.json')): PsuDirectory {
  const raw = JSON.parse(readFileSync(file, 'utf8')) as { headlessPsuId: string; psus: Psu[] }
  const psus = raw.psus
  const headlessPsu = psus.find((p) => p.psuId === raw.headlessPsuId)
  if (!headlessPsu) throw new Error(`${file}: headlessPsuId ${raw.headlessPsuId} names no PSU`)
  return {
    psus,
    headlessPsu,
    byUsername: (u) => psus.find((p) => p.username === u),
    byId: (id) => psus.find((p) => p.psuId === id),
    account(accountId) {
      for (const psu of psus) {
        const account = psu.accounts.find((a) => a.accountId === accountId)
        if (account) return { psu, account }
      }
      return undefined
    },
  }
}
