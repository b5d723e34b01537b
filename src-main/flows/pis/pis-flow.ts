import { randomUUID } from 'node:crypto'
import type { PisFlowInput } from '../../contract/api.ts'
import { AppError } from '../../core/app-error.ts'
import { consentJourney } from '../common/consent-journey.ts'
import type { StepDefinition } from '../step-machine.ts'
import { consentStep } from './consent-step.ts'
import { fundsStep } from './funds-step.ts'
import { paymentStep } from './payment-step.ts'
import type { PisFlowContext } from './pis-context.ts'
import { statusStep } from './status-step.ts'

/** The PIS journey of the bank's spec, section 5.6, as explicit steps. */
export function pisFlowSteps(input: PisFlowInput): StepDefinition<PisFlowContext>[] {
  if (!input.initiation || typeof input.initiation !== 'object')
    throw new AppError('INVALID_INPUT', {
      what: 'The payment has no Initiation.',
      cause: 'A domestic payment consent needs Data.Initiation.',
      fix: 'Fill in the amount, creditor account and references.',
    })
  return consentJourney<PisFlowContext>({
    scope: 'payments',
    consent: consentStep(),
    via: input.authorisationUrlFrom,
    then: [fundsStep(), paymentStep(), statusStep()],
  })
}

/** A ready-to-send example payment for the sandbox (£10.00 by Faster Payments to a test payee). */
export function examplePayment(): Pick<PisFlowInput, 'initiation' | 'risk'> {
  const ref = randomUUID().slice(0, 8).toUpperCase()
  return {
    initiation: {
      InstructionIdentification: `INSTR-${ref}`,
      EndToEndIdentification: `E2E-${ref}`,
      LocalInstrument: 'UK.OBIE.FPS',
      InstructedAmount: { Amount: '10.00', Currency: 'GBP' },
      CreditorAccount: {
        SchemeName: 'UK.OBIE.SortCodeAccountNumber',
        Identification: '08080021325698',
        Name: 'ACME Services Ltd',
      },
      RemittanceInformation: { Unstructured: ['Invoice 2026-118'] },
    },
    risk: { PaymentContextCode: 'TransferToThirdParty' },
  }
}
