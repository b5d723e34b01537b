/**
 * The JSON the UI benchmarks show. P5's 10 MB body: transactions shaped and sized like the local
 * sandbox's (about 700 bytes each, minified as a server sends them), the same bytes in the console and in
 * the bare Monaco floor. P6's pages: the local sandbox's own history.
 */
import { randomBytes, randomUUID } from 'node:crypto'
import { AisBank } from '../../../src-main/local-sandbox/ais/ais-bank.ts'
import { GrantedPermissions } from '../../../src-main/local-sandbox/ais/consents/permissions.ts'
import { transactionView } from '../../../src-main/local-sandbox/ais/views/transaction-view.ts'
import { loadPsus } from '../../../src-main/local-sandbox/psus.ts'

/** One transaction as the sandbox shows it. */
export function transaction(i: number): Record<string, unknown> {
  const id = i.toString(36).padStart(8, '0')
  return {
    AccountId: 'acc-amelia-current',
    TransactionId: `tx-${id}AbCdEfGhIjKlMnOp`,
    TransactionReference: `REF${id.toUpperCase()}`,
    CreditDebitIndicator: i % 3 ? 'Debit' : 'Credit',
    Status: 'BOOK',
    TransactionMutability: 'Immutable',
    BookingDateTime: '2026-10-01T10:15:00+00:00',
    ValueDateTime: '2026-10-01T10:15:00+00:00',
    TransactionInformation: `CARD PAYMENT TO MERCHANT ${i % 97}`,
    AddressLine: 'London GB',
    Amount: { Amount: `${(i % 9000) / 100 + 1}`, Currency: 'GBP' },
    BankTransactionCode: { Code: 'ReceivedCreditTransfer', SubCode: 'DomesticCreditTransfer' },
    ProprietaryBankTransactionCode: { Code: 'DEB', Issuer: 'OBConsoleSandboxBank' },
    Balance: { CreditDebitIndicator: 'Credit', Type: 'ITBD', Amount: { Amount: '1234.56', Currency: 'GBP' } },
    MerchantDetails: { MerchantName: `Merchant ${i % 97}`, MerchantCategoryCode: '5411' },
  }
}

/** A transactions page of `count` items, minified. */
export function transactionsPage(count: number): string {
  return JSON.stringify({
    Data: { Transaction: Array.from({ length: count }, (_, k) => transaction(k)) },
    Links: { Self: 'https://127.0.0.1/open-banking/v4.0/aisp/accounts/acc-amelia-current/transactions?page=1' },
    Meta: { TotalPages: 1 },
  })
}

/** P5's body: a transactions list of at least `bytes` bytes (10 MB). */
export function bigBody(bytes = 10 * 1024 * 1024): Buffer {
  return Buffer.from(transactionsPage(Math.ceil(bytes / (JSON.stringify(transaction(0)).length + 1))))
}

/**
 * P6's transactions pages: the local sandbox's own history (its seeded generator and its transaction
 * views, Detail permissions), 100 transactions a page, minified as the sandbox serves them: every account
 * of every test PSU, about 60 distinct pages of 80-95 KB. Real pages matter here: the exchange log keeps
 * older bodies compressed, and a page repeated byte for byte (or a synthetic one) compresses far better
 * than what a bank sends (these pages: ~11x with gzip, each on its own).
 */
export function sandboxPages(nowMs = Date.now()): Buffer[] {
  const bank = new AisBank(loadPsus(), nowMs - 400 * 86_400_000).at(nowMs)
  const permissions = new GrantedPermissions([
    'ReadAccountsDetail',
    'ReadTransactionsDetail',
    'ReadTransactionsCredits',
    'ReadTransactionsDebits',
  ])
  const pages: Buffer[] = []
  for (const psu of loadPsus().psus) {
    for (const { accountId } of psu.accounts) {
      const account = bank.account(accountId)
      if (!account) continue
      const seen = account.ledger.entries.filter((e) => e.authAt <= nowMs).reverse()
      const base = `https://127.0.0.1/open-banking/v4.0/aisp/accounts/${accountId}/transactions`
      const total = Math.ceil(seen.length / 100)
      for (let k = 0; k < total; k++) {
        const items = seen.slice(k * 100, k * 100 + 100).map((e) => transactionView(e, account, permissions, nowMs))
        pages.push(
          Buffer.from(
            JSON.stringify({
              Data: { Transaction: items },
              Links: {
                Self: `${base}?page=${k + 1}`,
                First: `${base}?page=1`,
                Last: `${base}?page=${total}`,
                ...(k + 1 < total ? { Next: `${base}?page=${k + 2}` } : {}),
              },
              Meta: { TotalPages: total },
            }),
          ),
        )
      }
    }
  }
  return pages.filter((p) => p.length > 20_000)
}

/**
 * P6's small answers (~1.5 KB, like the journey's token, consent and balance answers): each with its own
 * random token and ids, so that small answers do not compress into each other either.
 */
export function smallBody(i: number): Buffer {
  return Buffer.from(
    JSON.stringify({
      Data: {
        ConsentId: `aac-${randomUUID()}`,
        Status: 'AUTH',
        CreationDateTime: new Date(Date.UTC(2026, 9, 1) + i * 1000).toISOString(),
        Balance: [
          {
            AccountId: 'acc-amelia-current',
            CreditDebitIndicator: 'Credit',
            Type: 'ITAV',
            DateTime: '2026-10-01T10:15:00+00:00',
            Amount: { Amount: `${1000 + (i % 5000) / 100}`, Currency: 'GBP' },
          },
        ],
      },
      access_token: randomBytes(600).toString('base64url'),
      Links: { Self: 'https://127.0.0.1/open-banking/v4.0/aisp/accounts/acc-amelia-current/balances' },
      Meta: { TotalPages: 1 },
    }),
  )
}
