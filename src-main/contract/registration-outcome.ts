// What a registration or its update came to: the claims the bank kept otherwise than sent. Pure types.
import type { ClientDto } from './environments.ts'

/** A claim the bank registered with another value than the one sent, or dropped (`registered` absent). */
export interface ClaimChangeDto {
  claim: string
  sent: unknown
  registered?: unknown
}

/** A registration's (or its update's) outcome: the client, its exchange, and what the bank changed of the claims sent. */
export interface RegistrationOutcomeDto {
  client: ClientDto
  exchangeId: string
  changedByBank: ClaimChangeDto[]
}
