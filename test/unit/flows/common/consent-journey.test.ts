import { describe, expect, it } from 'vitest'
import { obAnswerShape } from '../../../../src-main/flows/common/bank-answer.ts'
import {
  authorisedConsent,
  consentIdOf,
  consentJourney,
  readCreatedConsent,
  type ConsentOutput,
} from '../../../../src-main/flows/common/consent-journey.ts'
import type { FlowContext, FlowResponse } from '../../../../src-main/flows/flow-context.ts'
import { stepKey, type StepDefinition } from '../../../../src-main/flows/step-machine.ts'
import { caught, fakeFlow, journeyStart } from '../flow-fixture.ts'

function step<Out>(id: string): StepDefinition<FlowContext, Out> {
  return { id: stepKey<Out>(id), title: id, explanation: id, run: async () => ({}) }
}

const CONSENT_STEP = stepKey<ConsentOutput>('consent')

const CONSENT = {
  what: 'Creating the consent',
  shape: obAnswerShape<{ Data: { ConsentId: string; Status: string } }>('a consent', {
    type: 'object',
    required: ['ConsentId', 'Status'],
    properties: { ConsentId: { type: 'string', minLength: 1 }, Status: { type: 'string' } },
  }),
  fix: 'Check the consent.',
}

function answer(status: number, body: unknown): FlowResponse {
  const text = JSON.stringify(body)
  return { exchangeId: 'ex-1', status, headers: { 'content-type': 'application/json' }, text, json: body }
}

describe('the consent journey both AIS and PIS follow', () => {
  it('orders discovery, client credentials, the consent, the four authorisation steps, then the consent’s own', () => {
    const steps = consentJourney({
      scope: 'payments',
      consent: step<ConsentOutput>('my-consent'),
      via: 'request-object',
      then: [step('first-use'), step('second-use')],
    })
    expect(steps.map((s) => s.id)).toEqual([...journeyStart('my-consent'), 'first-use', 'second-use'])
    // The authorisation URL waits for the consent step the journey was given.
    expect(steps[3]!.requires).toContain('my-consent')
  })

  it('reads the consent id and the PSU-authorised token of earlier steps', () => {
    const outputs = { consent: { consentId: 'c-1', status: 'AWAU' }, 'code-exchange': { accessToken: 'at-9' } }
    const { scope } = fakeFlow(() => ({ status: 200 }), outputs)
    expect(consentIdOf(scope, CONSENT_STEP)).toBe('c-1')
    expect(authorisedConsent(scope, CONSENT_STEP)).toEqual({ consentId: 'c-1', accessToken: 'at-9' })
    const before = fakeFlow(() => ({ status: 200 }), { consent: { consentId: 'c-1' } })
    expect(() => authorisedConsent(before.scope, CONSENT_STEP)).toThrow(/code-exchange/)
  })

  it('reads a created consent: 201, its id, the summary and whether it awaits authorisation', () => {
    const body = { Data: { ConsentId: 'c-2', Status: 'AWAU' }, Links: { Self: 'https://bank/c-2' } }
    const created = readCreatedConsent(answer(201, body), CONSENT)
    expect(created).toMatchObject({ consentId: 'c-2', summary: 'consent c-2 AWAU', Data: body.Data })
    expect(created.statusCheck).toEqual({ name: 'consent status', pass: true, expected: 'AWAU', actual: 'AWAU' })
    const odd = readCreatedConsent(answer(201, { ...body, Data: { ConsentId: 'c-3', Status: 'AUTH' } }), CONSENT)
    expect(odd.statusCheck).toMatchObject({ pass: false, actual: 'AUTH' })
  })

  it('a consent answered with another status than 201 fails with the step’s words', async () => {
    const body = { Data: { ConsentId: 'c-4', Status: 'AWAU' }, Links: { Self: 'x' } }
    const err = await caught(() => readCreatedConsent(answer(200, body), CONSENT))
    expect(err.what).toMatch(/^Creating the consent/)
  })
})
