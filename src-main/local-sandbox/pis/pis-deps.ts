import type { AisBank } from '../ais/ais-bank.ts'
import type { AuthorisationServer } from '../auth/types.ts'
import type { SandboxContext } from '../context.ts'
import type { FundsSource } from './funds/available-funds.ts'

/**
 * What the PIS handlers work with: the sandbox (its store holds consents, payments and idempotency keys), the
 * authorisation server's token and client views, the funds rule and the bank.
 */
export interface PisDeps {
  sandbox: SandboxContext
  auth: Pick<AuthorisationServer, 'tokens' | 'clients'>
  /** Available funds of a debtor account, the sandbox's accepted payments already taken off. */
  funds: FundsSource
  /** The bank's AIS data (shared with the AIS routes): accepted payments are posted on its ledgers. */
  bank: AisBank
}
