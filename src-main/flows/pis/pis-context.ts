import type { PisFlowInput } from '../../contract/api.ts'
import type { FlowContext } from '../flow-context.ts'
import type { OBWriteDomesticConsentResponse5 } from '../../plumbing/ob-wire/payment-initiation.ts'
import type { ConsentOutput } from '../common/consent-journey.ts'
import { stepKey, type StepDefinition } from '../step-machine.ts'

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

/** The payment consent step's output: the consent, the key it was created with, and its Initiation as the bank has it. */
export interface PisConsentOutput extends ConsentOutput {
  idempotencyKey: string
  initiation: OBWriteDomesticConsentResponse5['Data']['Initiation']
}

/** A payment's id and status, as the payment step and the status step leave them. */
export interface PaymentOutput {
  domesticPaymentId: string
  status: string
  /** The statuses seen while following the payment (the status step). */
  history?: string[]
}

/** The keys of the PIS flow's own steps, each with the type of its output (the shared ones are in `common/`). */
export const PIS_STEPS = {
  consent: stepKey<PisConsentOutput>('payment-consent'),
  funds: stepKey<{ available: boolean }>('funds-confirmation'),
  payment: stepKey<PaymentOutput>('domestic-payment'),
  status: stepKey<PaymentOutput>('payment-status'),
}

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
