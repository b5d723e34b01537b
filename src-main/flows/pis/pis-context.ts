import type { PisFlowInput } from '../../contract/api.ts'
import type { FlowContext } from '../flow-context.ts'
import type { StepDefinition } from '../step-machine.ts'

/** What the PIS steps run with: the flow's input, how the status step polls, and the payment request sent. */
export interface PisFlowContext extends FlowContext {
  pis: {
    input: PisFlowInput
    /** How often and how long the status step polls the payment (ms). */
    pollIntervalMs: number
    maxWaitMs: number
    sleep: (ms: number) => Promise<void>
    /**
     * The payment request of this flow, stored before it is first sent: the consent it spends, its
     * idempotency key and the exact body. A re-run of the payment step for the same consent sends these
     * again, so the bank answers the payment it made instead of making a second one.
     */
    payment?: PendingPayment
  }
}

export interface PendingPayment {
  consentId: string
  idempotencyKey: string
  body: string
  /** The payment's id, once an answer named it. */
  domesticPaymentId?: string
}

/** The ids of the PIS flow's own steps (the shared ones are in `common/`). */
export const PIS_STEPS = {
  consent: 'payment-consent',
  funds: 'funds-confirmation',
  payment: 'domestic-payment',
  status: 'payment-status',
} as const

/**
 * How each of the flow's own steps shows itself in the step list: its id, its title and what it does (the
 * step's module adds what it requires and how it runs).
 */
export const PIS_STEP_TEXT = {
  consent: {
    id: PIS_STEPS.consent,
    title: 'Domestic payment consent',
    explanation:
      'Creates the domestic payment consent, signed with x-jws-signature over the exact body and sent with an idempotency key.',
  },
  funds: {
    id: PIS_STEPS.funds,
    title: 'Funds confirmation',
    explanation: "Asks the bank whether the PSU's account can cover the payment (with the PSU-authorised token).",
  },
  payment: {
    id: PIS_STEPS.payment,
    title: 'Domestic payment',
    explanation:
      'Submits the payment with the same Initiation and Risk as the consent, signed, with the PSU-authorised token; the consent is consumed.',
  },
  status: {
    id: PIS_STEPS.status,
    title: 'Payment status',
    explanation: "Follows the payment's status (RCVD, then ACSP, then ACSC) until it is final.",
  },
} satisfies Record<keyof typeof PIS_STEPS, Pick<StepDefinition<unknown>, 'id' | 'title' | 'explanation'>>
