import type { AuthorisationServer } from '../auth/types.ts'
import type { SandboxContext } from '../context.ts'
import type { OpeningBalanceSource } from './funds/seed-available-balance.ts'
import type { IdempotencyStore } from './store/idempotency-store.ts'
import type { PaymentStore } from './store/payment-store.ts'

/** What the PIS handlers work with: the sandbox, the authorisation server's token and client views, PIS state. */
export interface PisDeps {
  sandbox: SandboxContext
  auth: Pick<AuthorisationServer, 'tokens' | 'clients'>
  payments: PaymentStore
  idempotency: IdempotencyStore
  openingBalances: OpeningBalanceSource
}
