import type { CheckResult } from '../../contract/checks.ts'
import type { FlowContext, FlowResponse } from '../flow-context.ts'
import type { StepDefinition, StepKey, StepScope } from '../step-machine.ts'
import { readBankAnswer, type AnswerSpec } from './bank-answer.ts'
import { bankId } from './bank-id.ts'
import {
  authorisationUrlStep,
  captureStep,
  CODE_EXCHANGE_STEP,
  codeExchangeStep,
  idTokenStep,
} from './authorisation.ts'
import { discoveryStep } from './discovery.ts'
import { clientCredentialsStep } from './tokens.ts'

/** What every consent step outputs, whatever else it keeps: the consent's id at the bank. */
export interface ConsentOutput {
  consentId: string
}

/** The id of the consent an earlier step created. */
export function consentIdOf(scope: Pick<StepScope, 'output'>, consentStep: StepKey<ConsentOutput>): string {
  return scope.output(consentStep).consentId
}

/** What every consent answer holds (AIS `OBReadConsentResponse1`, PIS `OBWriteDomesticConsentResponse5`). */
interface ConsentAnswer {
  Data: { ConsentId: string; Status: string }
}

/** A created consent as its step reads it. */
export interface CreatedConsent<Data> {
  /** The answer's `Data`, checked against the step's shape. */
  Data: Data
  consentId: string
  /** `consent {id} {status}`. */
  summary: string
  /** The consent awaits the PSU's authorisation (AWAU), as it must when just created. */
  statusCheck: CheckResult
}

/** Reads the bank's answer to a consent creation (201 and the step's shape), with what every consent step reports. */
export function readCreatedConsent<T extends ConsentAnswer>(
  res: FlowResponse,
  spec: Omit<AnswerSpec<T>, 'status'>,
): CreatedConsent<T['Data']> {
  const { Data } = readBankAnswer(res, { ...spec, status: 201 })
  const consentId = bankId('ConsentId', Data.ConsentId, 'the new consent')
  return {
    Data,
    consentId,
    summary: `consent ${consentId} ${Data.Status}`,
    statusCheck: {
      name: 'consent status',
      pass: Data.Status === 'AWAU',
      expected: 'AWAU',
      actual: Data.Status,
    },
  }
}

/** The consent the PSU authorised: its id, and the access token the code exchange gave for it. */
export function authorisedConsent(
  scope: Pick<StepScope, 'output'>,
  consentStep: StepKey<ConsentOutput>,
): { consentId: string; accessToken: string } {
  return {
    consentId: consentIdOf(scope, consentStep),
    accessToken: scope.output(CODE_EXCHANGE_STEP).accessToken,
  }
}

export interface ConsentJourneyOptions<C> {
  /** The scope of the client-credentials token and of the authorisation. */
  scope: 'accounts' | 'payments'
  /** The step that creates the consent. */
  consent: StepDefinition<C, ConsentOutput>
  via: 'o3-helper' | 'request-object' | 'app-deeplink'
  /** The steps that use the PSU-authorised token, in order. */
  then: StepDefinition<C>[]
}

/**
 * A consent journey of the bank's spec (AIS 5.5, PIS 5.6) as explicit steps: discovery, a
 * client-credentials token, the consent, the PSU's authorisation (URL, capture of the return, ID token
 * checks, code exchange), then the steps that use the consent.
 */
export function consentJourney<C extends FlowContext>(opts: ConsentJourneyOptions<C>): StepDefinition<C>[] {
  return [
    discoveryStep(),
    clientCredentialsStep(opts.scope),
    opts.consent,
    authorisationUrlStep({
      scope: opts.scope,
      consentStep: opts.consent.id,
      via: opts.via,
    }),
    captureStep(),
    idTokenStep(),
    codeExchangeStep(),
    ...opts.then,
  ] as StepDefinition<C>[]
}
