/**
 * The JSON the UI benchmarks show: transactions shaped and sized like the local sandbox's (about 700
 * bytes each, minified as a server sends them). P5's 10 MB body is the same bytes in the console and in
 * the bare Monaco floor.
 */

/** One transaction as the sandbox shows it. */
export function transaction(i: number): Record<string, unknown> {
  const id = i.toString(36).padStart(8, '0')
  return {
    AccountId: 'acc-amelia-current', TransactionId: `tx-${id}AbCdEfGhIjKlMnOp`, TransactionReference: `REF${id.toUpperCase()}`,
    CreditDebitIndicator: i % 3 ? 'Debit' : 'Credit', Status: 'BOOK', TransactionMutability: 'Immutable',
    BookingDateTime: '2026-10-01T10:15:00+00:00', ValueDateTime: '2026-10-01T10:15:00+00:00', TransactionInformation: `CARD PAYMENT TO MERCHANT ${i % 97}`,
    AddressLine: 'London GB', Amount: { Amount: `${(i % 9000) / 100 + 1}`, Currency: 'GBP' }, BankTransactionCode: { Code: 'ReceivedCreditTransfer', SubCode: 'DomesticCreditTransfer' },
    ProprietaryBankTransactionCode: { Code: 'DEB', Issuer: 'OBConsoleSandboxBank' }, Balance: { CreditDebitIndicator: 'Credit', Type: 'ITBD', Amount: { Amount: '1234.56', Currency: 'GBP' } },
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

/** A page of 100 transactions (~70-85 KB) and a small answer (~1.5 KB): P6's mix. */
export const PAGE_BODY = Buffer.from(transactionsPage(100))
export const SMALL_BODY = Buffer.from(JSON.stringify({
  Data: { Balance: [{ AccountId: 'acc-amelia-current', CreditDebitIndicator: 'Credit', Type: 'ITAV', DateTime: '2026-10-01T10:15:00+00:00', Amount: { Amount: '1234.56', Currency: 'GBP' } }] },
  Links: { Self: 'https://127.0.0.1/open-banking/v4.0/aisp/accounts/acc-amelia-current/balances' }, Meta: { TotalPages: 1 }, Padding: 'x'.repeat(1200),
}))
