import type { AisBank } from '../ais/ais-bank.ts'
import type { AuthorisationServer } from '../auth/types.ts'
import type { SandboxContext } from '../context.ts'
import type { FundsSource } from './funds/available-funds.ts'
import type { IdempotencyStore } from './store/idempotency-store.ts'
import type { PaymentStore } from './store/payment-store.ts'

/** What the PIS handlers work with: the sandbox, the authorisation server's token and client views, PIS state. */
export interface PisDeps {
  sandbox: SandboxContext
  auth: Pick<AuthorisationServer, 'tokens' | 'clients'>
  payments: PaymentStore
  idempotency: IdempotencyStore
  /** Available funds of a debtor account, the sandbox's accepted payments already taken off. */
  funds: FundsSource
  /** The bank's AIS data (shared with the AIS routes): accepted payments are posted on its ledgers. */
  bank: AisBank
}
