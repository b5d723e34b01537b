import type { AisFlowInput } from '../../contract/api.ts'
import { consentJourney } from '../common/consent-journey.ts'
import type { StepDefinition } from '../step-machine.ts'
import { accountsStep } from './accounts-step.ts'
import type { AisFlowContext } from './ais-context.ts'
import { balancesStep } from './balances-step.ts'
import { consentStep } from './consent-step.ts'
import { otherResourcesStep } from './other-resources-step.ts'
import { transactionsStep } from './transactions-step.ts'

/** The AIS journey of the bank's spec, section 5.5, as explicit steps. */
export function aisFlowSteps(input: AisFlowInput): StepDefinition<AisFlowContext>[] {
  return consentJourney<AisFlowContext>({
    scope: 'accounts',
    consent: consentStep(),
    via: input.authorisationUrlFrom,
    then: [accountsStep(), balancesStep(), transactionsStep(), otherResourcesStep()],
  })
}
