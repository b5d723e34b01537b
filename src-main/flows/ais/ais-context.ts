import type { ResourceOutcomeDto, TransactionViewDto } from '../../contract/ais-data.ts'
import type { AisFlowInput } from '../../contract/api.ts'
import type { OBAccount6, OBReadBalance1 } from '../../plumbing/ob-wire/account-info.ts'
import type { FlowContext } from '../flow-context.ts'
import { stepKey, type StepDefinition } from '../step-machine.ts'
import type { PsuAbsentBudget } from './psu-absent-budget.ts'
import type { ConsentOutput } from '../common/consent-journey.ts'
import type { TransactionsOutput } from './transaction-rows.ts'

/** What the AIS steps run with: the flow's input, the PSU-absent allowance, and what earlier runs saw. */
export interface AisFlowContext extends FlowContext {
  ais: {
    input: AisFlowInput
    budget: PsuAbsentBudget
    /** Pending transactions seen on earlier runs, per account, to match them once booked. */
    seenPending: Map<string, TransactionViewDto[]>
  }
}

/** The account access consent step's output. */
export interface AisConsentOutput extends ConsentOutput {
  status: string
  expirationDateTime?: string
}

/** The accounts step's output, which the later steps read per account. */
export interface AccountsOutput {
  accounts: OBAccount6[]
}

/** The balances step's output: each account's balances, by account id. */
export type BalancesOutput = Record<string, OBReadBalance1['Data']['Balance']>

/** The other resources step's output: what each read of each account gave, by account id. */
export type ResourcesOutput = Record<string, ResourceOutcomeDto[]>

/** The keys of the AIS flow's own steps, each with the type of its output (the shared ones are in `common/`). */
export const AIS_STEPS = {
  consent: stepKey<AisConsentOutput>('consent'),
  accounts: stepKey<AccountsOutput>('accounts'),
  balances: stepKey<BalancesOutput>('balances'),
  transactions: stepKey<TransactionsOutput>('transactions'),
  resources: stepKey<ResourcesOutput>('other-resources'),
}

/**
 * How each of the flow's own steps shows itself in the step list: its id, its title and what it does (the
 * step's module adds what it requires and how it runs).
 */
export const AIS_STEP_TEXT = {
  consent: {
    id: AIS_STEPS.consent,
    title: 'Account access consent',
    explanation:
      'Creates the account access consent (the permissions the PSU will be asked to grant) with the client-credentials token.',
  },
  accounts: {
    id: AIS_STEPS.accounts,
    title: 'Accounts',
    explanation:
      'Reads the accounts the PSU chose to share (only the current account and the credit card can be shared).',
  },
  balances: {
    id: AIS_STEPS.balances,
    title: 'Balances',
    explanation:
      "Reads each account's interim available (ITAV) balance; the credit card also returns its credit limit.",
  },
  transactions: {
    id: AIS_STEPS.transactions,
    title: 'Transactions',
    explanation:
      "Reads every page of each account's transactions (100 a page), following Links.Next; pending transactions later booked under another id are matched.",
  },
  resources: {
    id: AIS_STEPS.resources,
    title: 'Other resources',
    explanation:
      'Reads beneficiaries, direct debits, standing orders, offers, statements and party for each account; some are empty by product rule.',
  },
} satisfies Record<keyof typeof AIS_STEPS, Pick<StepDefinition<unknown>, 'id' | 'title' | 'explanation'>>
